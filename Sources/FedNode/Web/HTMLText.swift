import Activity

/// Escaping for text placed into HTML.
enum HTMLText {
    /// `text` with `& < > " '` replaced by entities.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}

extension HTMLText {
    /// The text of sanitised `html`, cut to `limit` characters (page descriptions).
    static func plain(_ html: String, limit: Int) -> String {
        let text = HTMLSanitizer.plainText(html).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.count > limit ? String(text.prefix(limit - 1)) + "…" : text
    }
}
