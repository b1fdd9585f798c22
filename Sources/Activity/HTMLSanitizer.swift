/// Allow-list sanitiser for HTML from remote servers (post content, bios, field values).
public enum HTMLSanitizer {
    /// Elements kept (with at most the attributes below).
    static let allowedElements: Set<String> = [
        "p", "br", "a", "span", "strong", "b", "em", "i", "u", "s", "del",
        "ul", "ol", "li", "blockquote", "code", "pre",
    ]
    /// Elements dropped together with everything inside them.
    static let droppedWithContent: Set<String> = [
        "script", "style", "iframe", "object", "embed", "applet", "template", "noscript",
        "noembed", "noframes", "frameset", "svg", "math", "xmp", "plaintext",
    ]
    /// Classes kept on `a` (Mastodon's mention and hashtag markup).
    static let linkClasses: Set<String> = ["mention", "hashtag", "u-url", "h-card"]
    /// Classes kept on `span` (h-card mentions and Mastodon's URL shortening).
    static let spanClasses: Set<String> = ["h-card", "invisible", "ellipsis", "mention"]
    /// The `rel` every kept link gets, whatever it had.
    static let linkRel = "nofollow noopener noreferrer"
    /// Deeper nesting than this is flattened (tags dropped, text kept).
    static let maxNesting = 32

    /// Allow-list sanitiser for remote HTML: keep p, br, a (href http/https only, rel forced to
    /// "nofollow noopener noreferrer", class limited to mention/hashtag/u-url/h-card), span
    /// (class h-card/invisible/ellipsis/mention only), strong, b, em, i, u, s, del, ul, ol, li,
    /// blockquote, code, pre; drop script/style/iframe and their contents; drop all other tags
    /// but keep their text; drop on* attributes, style, javascript:/data: URLs; escape text;
    /// well-formed output (close what is open).
    public static func sanitize(_ html: String) -> String {
        var writer = SanitizedWriter()
        for token in HTMLTokenizer(html) {
            writer.consume(token)
        }
        return writer.finish()
    }

    /// The href to keep: entities decoded, tabs and newlines removed and the ends trimmed as
    /// the URL parser does (so `java&#x09;script:` cannot slip through), and only when the
    /// scheme is http or https.
    static func safeURL(_ raw: String) -> String? {
        let decoded = HTMLText.decodeEntities(raw)
        let scalars = Array(decoded.unicodeScalars.lazy.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" })
        // Trimmed by index: removing a leading scalar at a time copied the rest each time.
        guard let first = scalars.firstIndex(where: { $0.value > 0x20 }),
              let last = scalars.lastIndex(where: { $0.value > 0x20 }) else { return nil }
        let url = String(String.UnicodeScalarView(scalars[first...last]))
        let lowered = url.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else { return nil }
        return url
    }

    /// The listed classes of a `class` attribute that are in `allowed`, in order.
    static func classes(_ raw: String?, allowed: Set<String>) -> String? {
        guard let raw else { return nil }
        let kept = HTMLText.decodeEntities(raw).split(whereSeparator: \.isWhitespace)
            .map(String.init).filter(allowed.contains)
        return kept.isEmpty ? nil : kept.joined(separator: " ")
    }
}

/// The state of one sanitising pass: what is open, and whether we are inside dropped content.
private struct SanitizedWriter {
    private var output = ""
    private var open: [String] = []
    private var dropped: [String] = []

    /// Adds what one token contributes to the output.
    mutating func consume(_ token: HTMLToken) {
        switch token {
        case .text(let text):
            if dropped.isEmpty { output += HTMLText.escape(HTMLText.decodeEntities(text)) }
        case .rawText(let text, let element):
            let keep = dropped.isEmpty && !HTMLSanitizer.droppedWithContent.contains(element)
            if keep { output += HTMLText.escape(HTMLText.decodeEntities(text)) }
        case .startTag(let name, let attributes):
            start(name, attributes)
        case .endTag(let name):
            end(name)
        }
    }

    /// The output with every still-open element closed.
    mutating func finish() -> String {
        while let name = open.popLast() { output += "</\(name)>" }
        return output
    }

    private mutating func start(_ name: String, _ attributes: [HTMLAttribute]) {
        // Raw-text elements end themselves in the tokenizer; only nest the others.
        if HTMLSanitizer.droppedWithContent.contains(name), !HTMLTokenizer.rawTextElements.contains(name) {
            dropped.append(name)
            return
        }
        guard dropped.isEmpty, HTMLSanitizer.allowedElements.contains(name) else { return }
        if name == "br" {
            output += "<br>"
            return
        }
        // A new a, p or li closes an open one of its kind, as an HTML parser would.
        if ["a", "p", "li"].contains(name), open.contains(name) { close(through: name) }
        guard open.count < HTMLSanitizer.maxNesting else { return }
        output += "<\(name)\(attributeText(name, attributes))>"
        open.append(name)
    }

    private mutating func end(_ name: String) {
        if let last = dropped.last {
            if last == name { dropped.removeLast() }
            return
        }
        if open.contains(name) { close(through: name) }
    }

    private mutating func close(through name: String) {
        while let last = open.popLast() {
            output += "</\(last)>"
            if last == name { return }
        }
    }

    private func attributeText(_ name: String, _ attributes: [HTMLAttribute]) -> String {
        let value = { (key: String) in attributes.first { $0.name == key }?.value }
        switch name {
        case "a":
            var text = ""
            if let href = value("href").flatMap(HTMLSanitizer.safeURL) { text += " href=\"\(HTMLText.escape(href))\"" }
            text += " rel=\"\(HTMLSanitizer.linkRel)\""
            if let classes = HTMLSanitizer.classes(value("class"), allowed: HTMLSanitizer.linkClasses) {
                text += " class=\"\(classes)\""
            }
            return text
        case "span":
            return HTMLSanitizer.classes(value("class"), allowed: HTMLSanitizer.spanClasses).map { " class=\"\($0)\"" } ?? ""
        default:
            return ""
        }
    }
}
