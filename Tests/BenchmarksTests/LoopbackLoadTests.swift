import Dispatch
import Foundation
import Testing
@testable import Benchmarks

/// The load generator against the loopback sinks: every request answered once, on kept-alive
/// connections, whatever the interleaving.
@Suite struct LoopbackLoadTests {
    @Test func generatorGetsEveryAnswerFromTheSink() throws {
        let sink = try LoopbackSink(count: 1)
        sink.start()
        defer { sink.stop() }
        let body = Array("{\"type\":\"Create\"}".utf8)
        let request = Array("POST /inbox HTTP/1.1\r\nHost: a\r\nSignature: keyId=\"k\"\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
        let result = try LoadGenerator(port: sink.ports[0], connections: 4).run(Array(repeating: request, count: 200), limit: 30)
        #expect(result.statuses == [202: 200])
        #expect(result.failures == 0 && result.latencies.count == 200)
        // The sink counts an answer just after writing it, so the last count may trail the client.
        #expect(QueueMonitor.wait(limit: 5) { sink.answered >= 200 } != nil)
        #expect(sink.snapshot.answered == 200 && sink.snapshot.signed == 200)
    }

    @Test func everySinkAnswersAcrossConnectionsThatCloseAndOpenAgain() throws {
        let sink = try LoopbackSink(count: 3)
        sink.start()
        defer { sink.stop() }
        let unsigned = Array("POST /inbox HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}".utf8)
        // Each run opens its connections and closes them at the end, so later runs reuse the
        // descriptor numbers of connections the sink has seen close.
        for round in 0..<2 {
            for port in sink.ports {
                let result = try LoadGenerator(port: port, connections: 3).run(Array(repeating: unsigned, count: 50), limit: 30)
                #expect(result.statuses == [202: 50], "round \(round), port \(port)")
            }
        }
        #expect(QueueMonitor.wait(limit: 5) { sink.answered >= 300 } != nil)
        #expect(sink.snapshot.answered == 300 && sink.snapshot.signed == 0)
    }

    /// A server that reads each request and closes the connection without answering the first
    /// `silentConnections` connections, then answers 202 on the rest.
    private static func serveClosingFirst(_ silentConnections: Int, connections: Int) throws -> (port: Int, done: DispatchSemaphore) {
        let (listener, port) = try LoopbackSocket.listen()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            defer { close(listener); done.signal() }
            var scratch = [UInt8](repeating: 0, count: 4096)
            for number in 0..<connections {
                let fd = accept(listener, nil, nil)
                guard fd >= 0 else { return }
                LoopbackSocket.setTimeout(fd, seconds: 5)
                _ = scratch.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
                if number >= silentConnections {
                    _ = LoopbackSocket.writeAll(fd, Array("HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n".utf8))
                    _ = scratch.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }  // until the client closes
                }
                close(fd)
            }
        }
        return (port, done)
    }

    @Test func aRequestOnAConnectionClosedBeforeAnyAnswerGoesOnceMore() throws {
        let request = Array("POST /inbox HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}".utf8)
        let (port, done) = try Self.serveClosingFirst(1, connections: 2)
        let result = try LoadGenerator(port: port, connections: 1).run([request], limit: 10)
        #expect(result.statuses == [202: 1])
        #expect(result.failures == 0 && result.resent == 1)
        #expect(done.wait(timeout: .now() + 10) == .success)
    }

    @Test func aRequestClosedTwiceWithoutAnswerFails() throws {
        let request = Array("POST /inbox HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}".utf8)
        let (port, done) = try Self.serveClosingFirst(2, connections: 2)
        let result = try LoadGenerator(port: port, connections: 1).run([request], limit: 10)
        #expect(result.statuses.isEmpty)
        #expect(result.failures == 1 && result.resent == 1)
        #expect(ReportBuilder.otherAnswers(result) == " (1 not answered, 1 sent again on a new connection)")
        #expect(done.wait(timeout: .now() + 10) == .success)
    }
}
