@testable import Core
import Foundation
import Logging
import Testing
@testable import FedNode

/// The HTTP server answers what it cannot parse and lets no client hold a socket: tested with
/// raw bytes on a real socket, as hostile servers and clients send them.
@Suite("HTTP server: malformed requests, slow clients, header limits", .serialized)
struct ServerHardeningTests {
    static func answeredStatus(_ text: String) -> Int? {
        guard text.hasPrefix("HTTP/1.1 ") else { return nil }
        return Int(text.dropFirst(9).prefix(3))
    }

    @Sendable static func untilResponseEnds(_ text: String) -> Bool { text.contains("\r\n\r\n") && text.contains("}") }

    @Test("a header literally named (request-target) gets 400 and the connection closes")
    func invalidHeaderName() async throws {
        try await ServedNode.with { served in
            let request = "POST /inbox HTTP/1.1\r\nHost: 127.0.0.1\r\n(request-target): post /inbox\r\nContent-Length: 2\r\n\r\n{}"
            let (text, closed) = try await RawHTTPClient.exchange(port: served.port, Array(request.utf8))
            #expect(Self.answeredStatus(text) == 400)
            #expect(text.contains(#"{"error":"#))
            #expect(closed)
        }
    }

    @Test("a TLS ClientHello on the plain-http port gets 400 and a close, not a hang")
    func tlsOnPlainPort() async throws {
        try await ServedNode.with { served in
            // The start of a real TLS 1.2/1.3 ClientHello record.
            let hello: [UInt8] = [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03] + Array(repeating: 0x2a, count: 64)
            let (text, closed) = try await RawHTTPClient.exchange(port: served.port, hello)
            #expect(Self.answeredStatus(text) == 400)
            #expect(closed)
        }
    }

    @Test("100 KiB of headers get 431")
    func oversizedHeaders() async throws {
        try await ServedNode.with { served in
            var request = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            for index in 0..<100 { request += "X-Filler-\(index): \(String(repeating: "a", count: 1000))\r\n" }
            let (text, closed) = try await RawHTTPClient.exchange(port: served.port, Array((request + "\r\n").utf8))
            #expect(Self.answeredStatus(text) == 431)
            #expect(closed)
        }
    }

    @Test("a request head sent too slowly is cut off, and the node keeps answering others")
    func slowHead() async throws {
        var limits = ServerLimits()
        // Short, but not so short that a loaded machine's event loop reads a prompt request late.
        limits.requestHeadSeconds = 3
        try await ServedNode.with(limits: limits) { served in
            // Half a request and then nothing: the guard closes it (well within the bounded read).
            let (_, closed) = try await RawHTTPClient.exchange(port: served.port, Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n".utf8), limit: 15)
            #expect(closed)
            // A connection that never sends a byte is closed too.
            let (_, silentClosed) = try await RawHTTPClient.exchange(port: served.port, [], limit: 15)
            #expect(silentClosed)
            let (text, _) = try await RawHTTPClient.exchange(port: served.port, Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8),
                                                       until: Self.untilResponseEnds)
            #expect(Self.answeredStatus(text) == 200)
        }
    }

    @Test("a keep-alive connection still serves several requests, then idles out")
    func keepAlive() async throws {
        var limits = ServerLimits()
        limits.requestHeadSeconds = 1
        try await ServedNode.with(limits: limits) { served in
            let two = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            let (text, closed) = try await RawHTTPClient.exchange(port: served.port, Array(two.utf8), limit: 15)
            #expect(text.components(separatedBy: "HTTP/1.1 200").count == 3)
            #expect(closed)
        }
    }

    @Test("connections closed before their first request, by the client or by the idle timeout, log no error")
    func connectionsClosedBeforeARequestAreQuiet() async throws {
        var limits = ServerLimits()
        limits.requestHeadSeconds = 1
        let store = CapturingLogHandler.Store()
        let logger = Logger(label: "fednode-quiet-close-test") { _ in CapturingLogHandler(store: store) }
        try await ServedNode.with(limits: limits, logger: logger) { served in
            // A load balancer's TCP check, a browser's unused preconnect: open, then close.
            for _ in 0..<3 { _ = try await RawHTTPClient.exchange(port: served.port, [], limit: 0.2) }
            // Open and send nothing: the node closes it when the head timeout runs out.
            let (_, closed) = try await RawHTTPClient.exchange(port: served.port, [], limit: 15)
            #expect(closed)
            // Half a head, then the client goes away.
            _ = try await RawHTTPClient.exchange(port: served.port, Array("GET /healthz HTTP/1.1\r\n".utf8), limit: 0.2)
            let (text, _) = try await RawHTTPClient.exchange(port: served.port, Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8),
                                                       until: Self.untilResponseEnds)
            #expect(Self.answeredStatus(text) == 200)
            try await Task.sleep(for: .milliseconds(300))
            // Read before the test stops the server (cancelling it logs on its own).
            let loud = store.all.filter { $0.level >= .warning }
            #expect(loud.isEmpty, "\(loud.map { "\($0.level) \($0.message) \($0.metadata)" })")
        }
    }

    @Test("beyond the connection limit new connections get 503; a freed slot serves again")
    func connectionLimit() async throws {
        var limits = ServerLimits()
        limits.maxConnections = 2
        limits.requestHeadSeconds = 2
        try await ServedNode.with(limits: limits) { served in
            // The start-up probe's kept-alive connection idles out first.
            try await Task.sleep(for: .seconds(2.5))
            // Two idle connections hold both slots until the head timeout frees them.
            let port = served.port
            let holders = (0..<2).map { _ in Task { try await RawHTTPClient.exchange(port: port, [], limit: 15) } }
            try await Task.sleep(for: .milliseconds(300))
            let (refused, closed) = try await RawHTTPClient.exchange(port: served.port, Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
            #expect(Self.answeredStatus(refused) == 503, "a third connection was served while two held the limit")
            #expect(closed)
            for holder in holders { #expect(try await holder.value.1) }
            let (text, _) = try await RawHTTPClient.exchange(port: served.port, Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8),
                                                       until: Self.untilResponseEnds)
            #expect(Self.answeredStatus(text) == 200)
        }
    }
}
