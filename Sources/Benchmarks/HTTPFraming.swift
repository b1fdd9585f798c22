/// Finds where one HTTP/1.1 message ends in a receive buffer, so the load generator and the
/// sinks can keep connections alive without a full HTTP stack.
enum HTTPFraming {
    /// The parts of a message head the suite needs.
    struct Head: Sendable {
        /// The status code of a response; 0 for a request.
        var status = 0
        /// The request line of a request; empty for a response.
        var requestLine = ""
        /// Index just past the blank line that ends the head.
        var bodyStart = 0
        /// `Content-Length`, when given.
        var contentLength: Int?
        /// `Transfer-Encoding: chunked`.
        var chunked = false
        /// `Connection: close`.
        var closes = false
        /// Whether a `Signature` or `Signature-Input` header is present.
        var signed = false
    }

    /// Parses the head at the start of `buffer`, or returns `nil` while it is incomplete.
    static func head(in buffer: [UInt8]) -> Head? {
        guard let end = headEnd(buffer) else { return nil }
        let text = String(decoding: buffer[0..<end], as: UTF8.self)
        var head = Head(bodyStart: end)
        for (index, line) in text.split(separator: "\r\n", omittingEmptySubsequences: true).enumerated() {
            if index == 0 {
                if line.hasPrefix("HTTP/") {
                    head.status = Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
                } else {
                    head.requestLine = String(line)
                }
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingPrefix(" ").lowercased()
            switch name {
            case "content-length": head.contentLength = Int(value)
            case "transfer-encoding": head.chunked = value.contains("chunked")
            case "connection": head.closes = value.contains("close")
            case "signature", "signature-input": head.signed = true
            default: break
            }
        }
        return head
    }

    /// The length of the complete message at the start of `buffer`, or `nil` while more bytes
    /// are needed. A message with neither a length nor chunking has no body (what the servers
    /// under test never send otherwise).
    static func messageLength(_ head: Head, in buffer: [UInt8]) -> Int? {
        if head.chunked { return chunkedEnd(buffer, from: head.bodyStart) }
        let total = head.bodyStart + (head.contentLength ?? 0)
        return buffer.count >= total ? total : nil
    }

    /// Index just past `\r\n\r\n`, or `nil`.
    private static func headEnd(_ buffer: [UInt8]) -> Int? {
        guard buffer.count >= 4 else { return nil }
        var index = 3
        while index < buffer.count {
            if buffer[index] == 10, buffer[index - 1] == 13, buffer[index - 2] == 10, buffer[index - 3] == 13 {
                return index + 1
            }
            index += 1
        }
        return nil
    }

    /// Index just past the last chunk of a chunked body (no trailers), or `nil` while incomplete.
    private static func chunkedEnd(_ buffer: [UInt8], from start: Int) -> Int? {
        var index = start
        while true {
            guard let lineEnd = lineEnd(buffer, from: index) else { return nil }
            let sizeText = String(decoding: buffer[index..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: " "), radix: 16) else { return nil }
            index = lineEnd + 2
            if size == 0 { return buffer.count >= index + 2 ? index + 2 : nil }
            index += size + 2
            guard index <= buffer.count else { return nil }
        }
    }

    private static func lineEnd(_ buffer: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + 1 < buffer.count {
            if buffer[index] == 13, buffer[index + 1] == 10 { return index }
            index += 1
        }
        return nil
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Character) -> Substring {
        var result = self
        while result.first == set { result.removeFirst() }
        while result.last == set { result.removeLast() }
        return result
    }
}
