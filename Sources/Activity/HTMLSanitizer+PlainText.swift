import Foundation

extension HTMLSanitizer {
    /// Elements that start and end a paragraph in plain text.
    static let blockElements: Set<String> = [
        "p", "div", "blockquote", "pre", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6",
        "table", "section", "article", "header", "footer", "figure", "hr",
    ]

    /// HTML → plain text (br/p → newlines, entities decoded incl. numeric), for search and
    /// captions. Paragraphs are separated by a blank line, `<br>` and list items start a new
    /// line, runs of whitespace outside `<pre>` collapse to one space, script/style content
    /// is dropped, and the result is trimmed.
    public static func plainText(_ html: String) -> String {
        var writer = PlainTextWriter()
        for token in HTMLTokenizer(html) {
            writer.consume(token)
        }
        return writer.text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

private struct PlainTextWriter {
    /// The text so far.
    var text = ""
    private var preformatted = 0
    private var dropped: [String] = []

    /// Adds what one token contributes to the text.
    mutating func consume(_ token: HTMLToken) {
        switch token {
        case .text(let raw):
            if dropped.isEmpty { append(HTMLText.decodeEntities(raw)) }
        case .rawText(let raw, let element):
            if dropped.isEmpty, !HTMLSanitizer.droppedWithContent.contains(element) {
                append(HTMLText.decodeEntities(raw))
            }
        case .startTag(let name, _):
            start(name)
        case .endTag(let name):
            end(name)
        }
    }

    private mutating func start(_ name: String) {
        if HTMLSanitizer.droppedWithContent.contains(name), !HTMLTokenizer.rawTextElements.contains(name) {
            dropped.append(name)
        }
        guard dropped.isEmpty else { return }
        switch name {
        case "br": text += "\n"
        case "li", "tr": lineBreak()
        case "pre": preformatted += 1; paragraphBreak()
        case _ where HTMLSanitizer.blockElements.contains(name): paragraphBreak()
        default: break
        }
    }

    private mutating func end(_ name: String) {
        if let last = dropped.last {
            if last == name { dropped.removeLast() }
            return
        }
        if name == "pre" { preformatted = max(0, preformatted - 1) }
        if HTMLSanitizer.blockElements.contains(name) { paragraphBreak() }
    }

    private mutating func append(_ piece: String) {
        guard preformatted == 0 else {
            text += piece
            return
        }
        // Scalar by scalar: a space followed by a combining mark is one Character that
        // counts as whitespace, and collapsing it as a whole dropped the mark. The last scalar,
        // not `text.last`, for the same reason and because finding the last Character walks
        // back over a whole grapheme cluster (quadratic over combining marks split by tags).
        var lastWasSpace = text.unicodeScalars.last?.properties.isWhitespace ?? true
        var collapsed = String.UnicodeScalarView()
        for scalar in piece.unicodeScalars {
            if scalar.properties.isWhitespace && scalar != "\u{A0}" {
                if !lastWasSpace { collapsed.append(" ") }
                lastWasSpace = true
            } else {
                collapsed.append(scalar)
                lastWasSpace = false
            }
        }
        text += String(collapsed)
    }

    private mutating func lineBreak() {
        trimTrailingSpaces()
        if !text.isEmpty, text.unicodeScalars.last != "\n" { text += "\n" }
    }

    private mutating func paragraphBreak() {
        trimTrailingSpaces()
        guard !text.isEmpty else { return }
        while !text.unicodeScalars.suffix(2).elementsEqual(["\n", "\n"]) { text += "\n" }
    }

    private mutating func trimTrailingSpaces() {
        while text.unicodeScalars.last == " " { text.unicodeScalars.removeLast() }
    }
}
