import Activity

/// Escaping for text placed into HTML.
package enum HTMLText {
    /// `text` with `& < > " '` replaced by entities, byte by byte: a combining mark after a
    /// quote or `<` forms one `Character` with it, and a `Character`-wise escape (swift-mustache's
    /// own, this one before) let such a quote end an attribute value. Text with nothing to
    /// escape is returned as it is.
    package static func escape(_ text: String) -> String {
        var text = text
        return text.withUTF8 { source in
            guard let first = source.firstIndex(where: needsEscape) else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(source.count + 16)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: source[..<first]))
            for byte in source[first...] {
                switch byte {
                case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
                case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
                case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
                case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
                case UInt8(ascii: "'"): out.append(contentsOf: "&#39;".utf8)
                default: out.append(byte)
                }
            }
            return String(decoding: out, as: UTF8.self)
        } ?? text
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "\"")
            || byte == UInt8(ascii: "'")
    }
}

extension HTMLText {
    /// The text of sanitised `html`, cut to `limit` characters (page descriptions).
    package static func plain(_ html: String, limit: Int) -> String {
        let text = HTMLSanitizer.plainText(html).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
    }
}
