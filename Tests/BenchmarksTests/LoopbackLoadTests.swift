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
}
