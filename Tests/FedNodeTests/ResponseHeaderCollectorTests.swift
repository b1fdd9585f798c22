@testable import Core
import Testing

@testable import FedNode

/// The header lines libcurl hands over become the final response's headers.
@Suite struct ResponseHeaderCollectorTests {
    private func collect(_ lines: [String]) -> [(name: String, value: String)] {
        var collector = ResponseHeaderCollector()
        for line in lines { _ = collector.consume(line) }
        return collector.headers
    }

    @Test("values lose the spaces and tabs around them, keep those inside, and may be empty or non-ASCII")
    func trimming() {
        let headers = collect([
            "HTTP/1.1 202 Accepted\r\n", "Retry-After: \t 120 \t\r\n", "X-Empty:   \r\n", "X-Bare:\r\n",
            "Server:  nginx / 1.25  \r\n", "X-Name: Zoë  Ünïcode\t\r\n", "\r\n",
        ])
        #expect(headers.map(\.name) == ["Retry-After", "X-Empty", "X-Bare", "Server", "X-Name"])
        #expect(headers.map(\.value) == ["120", "", "", "nginx / 1.25", "Zoë  Ünïcode"])
    }

    @Test("a status line starts over, a folded line continues the previous value, a line without a colon is ignored")
    func responsesAndFolding() {
        var collector = ResponseHeaderCollector()
        let starts = [
            "HTTP/1.1 302 Found\r\n", "Location: /elsewhere\r\n", "HTTP/2 200\r\n", "X-Long: first\r\n",
            "  \t second part \r\n", "garbage without a colon\r\n",
        ].map { collector.consume($0) }
        #expect(starts == [true, false, true, false, false, false])
        #expect(collector.headers.map(\.name) == ["X-Long"])
        #expect(collector.headers.map(\.value) == ["first second part"])
    }
}
