import Core

/// The one check for where the node sends a browser: every `Location` it answers goes through
/// `target(_:or:)`, so a `next=`, `back=` or any other target that came from a request never
/// leaves the node. (An OAuth app's `redirect_uri` is another thing: it must equal a URI the app
/// registered, see `AuthorizationRequest`.)
///
/// A target is accepted only as a path on this site: exactly one leading `/`, no `\` anywhere,
/// no control character, whitespace or invisible format character anywhere (browsers drop TAB,
/// CR and LF from URLs, so `/<TAB>/evil.example` would go to `//evil.example`). The checks are
/// made on the text and on its percent-decoded forms, decoded again until nothing changes, so
/// `/%09/evil`, `/%2F/evil`, `/%5Cevil` and `/%2509/evil` are refused as well.
enum LocalRedirect {
    /// Where a refused target goes instead.
    static let home = "/"
    /// Longest target accepted.
    static let maxLength = 500
    /// Most rounds of percent-decoding tried; a text still changing after them is refused.
    static let maxDecodingRounds = 4

    /// `raw` when it is a safe local path, else `fallback` (itself checked, else `/`).
    static func target(_ raw: String?, or fallback: String = home) -> String {
        if let raw, isLocal(raw) { return raw }
        return isLocal(fallback) ? fallback : home
    }

    /// Whether `raw` is a path on this site, as the type's summary says.
    static func isLocal(_ raw: String) -> Bool {
        guard raw.utf8.count <= maxLength else { return false }
        var text = raw
        for _ in 0...maxDecodingRounds {
            guard isPlainPath(text) else { return false }
            let decoded = percentDecoded(text)
            if decoded == text { return true }
            text = decoded
        }
        return false
    }

    /// One leading `/` (not `//`), no `\`, nothing a browser would strip or read as a space.
    private static func isPlainPath(_ text: String) -> Bool {
        let scalars = text.unicodeScalars
        guard scalars.first == "/", scalars.dropFirst().first != "/" else { return false }
        return !scalars.contains { $0 == "\\" || isInvisible($0) }
    }

    /// Control characters (C0, DEL, C1), every kind of Unicode space and separator, and format
    /// characters such as U+200B or U+FEFF.
    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isWhitespace { return true }
        switch scalar.properties.generalCategory {
        case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }

    /// `text` with every well-formed `%XX` replaced by its byte; malformed escapes stay as they
    /// are, and bytes that are not UTF-8 become U+FFFD (which is neither `/` nor `\`).
    static func percentDecoded(_ text: String) -> String {
        let utf8 = Array(text.utf8)
        guard utf8.contains(UInt8(ascii: "%")) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count, let high = HexDigit.value(of: utf8[index + 1]),
                let low = HexDigit.value(of: utf8[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
