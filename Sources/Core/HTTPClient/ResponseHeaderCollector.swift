import Signatures

/// Collects the header lines libcurl hands to its header callback into the headers of the final
/// response. libcurl reports the headers of every response it reads (interim `100 Continue`,
/// each redirect, the final one), each starting with its status line, so a status line starts over.
package struct ResponseHeaderCollector {
    /// The headers of the most recent response seen so far.
    private(set) var headers: [(name: String, value: String)] = []

    /// Takes one raw header line, with or without its trailing CRLF.
    /// - Parameter line: The line as libcurl delivered it.
    /// - Returns: `true` when the line is a status line, that is when a new response begins.
    package mutating func consume(_ line: String) -> Bool {
        var text = Substring(line)
        // "\r\n" is one Character in Swift, so test isNewline rather than comparing with "\r".
        while let last = text.last, last.isNewline { text.removeLast() }
        if text.hasPrefix("HTTP/") {
            headers.removeAll()
            return true
        }
        guard !text.isEmpty else { return false }
        if let first = text.first, first == " " || first == "\t", !headers.isEmpty {
            // obs-fold continuation line (RFC 9112 5.2): part of the previous header's value.
            headers[headers.count - 1].value += " " + text.trimmingHTTPWhitespace()
            return false
        }
        guard let colon = text.firstIndex(of: ":") else { return false }
        headers.append((name: String(text[..<colon]), value: text[text.index(after: colon)...].trimmingHTTPWhitespace()))
        return false
    }
}
