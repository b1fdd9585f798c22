import Testing
@testable import Benchmarks

/// The framing the load generator and the sinks rely on to keep connections alive.
@Suite struct HTTPFramingTests {
    @Test func responseWithContentLengthIsCompleteOnlyWithItsBody() throws {
        let text = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 15\r\n\r\n{\"status\":\"ok\"}"
        let full = Array(text.utf8)
        let head = try #require(HTTPFraming.head(in: full))
        #expect(head.status == 200)
        #expect(HTTPFraming.messageLength(head, in: full) == full.count)
        #expect(HTTPFraming.messageLength(head, in: Array(full.dropLast(3))) == nil)
    }

    @Test func incompleteHeadIsNotParsed() {
        #expect(HTTPFraming.head(in: Array("HTTP/1.1 202 Accepted\r\nContent-Len".utf8)) == nil)
    }

    @Test func chunkedBodyEndsAtTheZeroChunk() throws {
        let message = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n".utf8)
        let next = Array("HTTP/1.1 202 Accepted\r\n".utf8)
        let head = try #require(HTTPFraming.head(in: message + next))
        #expect(head.chunked)
        #expect(HTTPFraming.messageLength(head, in: message + next) == message.count)
        #expect(HTTPFraming.messageLength(head, in: Array(message.dropLast(2))) == nil)
    }

    @Test func requestHeadTellsSignedFromUnsigned() throws {
        let signed = try #require(HTTPFraming.head(in: Array("POST /inbox HTTP/1.1\r\nsignature: keyId=\"k\"\r\nContent-Length: 0\r\n\r\n".utf8)))
        let unsigned = try #require(HTTPFraming.head(in: Array("GET /healthz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n".utf8)))
        #expect(signed.status == 0 && signed.requestLine == "POST /inbox HTTP/1.1" && signed.signed)
        #expect(!unsigned.signed && unsigned.closes)
    }
}
