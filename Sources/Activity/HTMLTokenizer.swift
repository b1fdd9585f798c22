/// One token of an HTML fragment.
enum HTMLToken: Equatable {
    /// Text as written (character references not yet decoded).
    case text(String)
    /// The content of a raw-text element such as `<script>` or `<style>`, and that element.
    case rawText(String, element: String)
    /// A start tag; the name is lowercased, attribute names too, values are as written.
    case startTag(name: String, attributes: [HTMLAttribute])
    /// An end tag; the name is lowercased.
    case endTag(name: String)
}

/// One attribute of a start tag.
struct HTMLAttribute: Equatable {
    /// The lowercased name.
    var name: String
    /// The value as written (character references not yet decoded); "" when absent.
    var value: String
}

/// A small tokenizer after the HTML Living Standard's (13.2.5) for fragments of post HTML.
///
/// It follows the parts that decide what is markup and what is text, the way a browser
/// does: a `<` starts a tag only before an ASCII letter, `/` or `!`; a tag name runs to
/// whitespace, `/` or `>`; quoted attribute values may hold `>`; a tag cut off by the end of
/// input is dropped; comments, doctypes and processing instructions vanish; the content of
/// raw-text elements (`script`, `style`, ...) is not markup.
struct HTMLTokenizer: Sequence, IteratorProtocol {
    /// Elements whose content is text up to the matching end tag (13.2.5.2, 13.2.5.3).
    static let rawTextElements: Set<String> = [
        "script", "style", "iframe", "xmp", "noembed", "noframes", "noscript", "textarea", "title", "plaintext",
    ]
    /// Most attributes kept on one tag; later ones are read and dropped. The sanitiser keeps at
    /// most three, so this only bounds what one hostile tag (200,000 attributes) can cost.
    static let maxAttributes = 64

    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var pendingRawText: String?

    /// A tokenizer at the start of `html`.
    init(_ html: String) {
        scalars = Array(html.unicodeScalars)
    }

    /// The next token, or nil at the end of the input.
    mutating func next() -> HTMLToken? {
        if let element = pendingRawText {
            pendingRawText = nil
            return rawText(closing: element)
        }
        while index < scalars.count {
            guard scalars[index] == "<", isMarkupStart(at: index) else { return text() }
            if let token = markup() { return token }
        }
        return nil
    }

    private func isMarkupStart(at position: Int) -> Bool {
        guard position + 1 < scalars.count else { return false }
        let next = scalars[position + 1]
        return HTMLText.isASCIILetter(next) || next == "/" || next == "!" || next == "?"
    }

    private mutating func text() -> HTMLToken {
        let start = index
        index += 1
        while index < scalars.count, !(scalars[index] == "<" && isMarkupStart(at: index)) { index += 1 }
        return .text(string(start, index))
    }

    /// A tag, or nil after skipping a comment/doctype/bogus markup (or a tag cut off at the end).
    private mutating func markup() -> HTMLToken? {
        let next = scalars[index + 1]
        if next == "!" || next == "?" {
            skipComment()
            return nil
        }
        if next == "/" {
            guard index + 2 < scalars.count, HTMLText.isASCIILetter(scalars[index + 2]) else {
                skipBogusComment()
                return nil
            }
            index += 2
            let name = tagName()
            guard readAttributes() != nil else { return nil }
            return .endTag(name: name)
        }
        index += 1
        let name = tagName()
        guard let attributes = readAttributes() else { return nil }
        if Self.rawTextElements.contains(name) { pendingRawText = name }
        return .startTag(name: name, attributes: attributes)
    }

    private mutating func tagName() -> String {
        let start = index
        while index < scalars.count, !isSpace(scalars[index]), scalars[index] != "/", scalars[index] != ">" {
            index += 1
        }
        return string(start, index).lowercased()
    }

    /// Attributes up to and including `>`; nil (and input consumed) when the input ends first.
    /// A repeated name is dropped, the first one wins (13.2.5.33); past `maxAttributes` the
    /// rest are skipped. The names seen are kept in a set so a long tag stays linear.
    private mutating func readAttributes() -> [HTMLAttribute]? {
        var attributes: [HTMLAttribute] = []
        var seen: Set<String> = []
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == ">" {
                index += 1
                return attributes
            }
            if isSpace(scalar) || scalar == "/" {
                index += 1
                continue
            }
            let name = attributeName()
            let value = attributeValue()
            if attributes.count < Self.maxAttributes, seen.insert(name).inserted {
                attributes.append(HTMLAttribute(name: name, value: value ?? ""))
            }
        }
        return nil
    }

    private mutating func attributeName() -> String {
        let start = index
        index += 1  // the first character may be "=" (13.2.5.32)
        while index < scalars.count, !isSpace(scalars[index]), !"/>=".unicodeScalars.contains(scalars[index]) {
            index += 1
        }
        return string(start, index).lowercased()
    }

    private mutating func attributeValue() -> String? {
        var probe = index
        while probe < scalars.count, isSpace(scalars[probe]) { probe += 1 }
        guard probe < scalars.count, scalars[probe] == "=" else { return nil }
        index = probe + 1
        while index < scalars.count, isSpace(scalars[index]) { index += 1 }
        guard index < scalars.count else { return nil }
        let quote = scalars[index]
        if quote == "\"" || quote == "'" {
            let start = index + 1
            index = start
            while index < scalars.count, scalars[index] != quote { index += 1 }
            let value = string(start, index)
            if index < scalars.count { index += 1 }
            return value
        }
        let start = index
        while index < scalars.count, !isSpace(scalars[index]), scalars[index] != ">" { index += 1 }
        return string(start, index)
    }

    /// Text up to `</element` (any case) followed by whitespace, `/` or `>`, or the end.
    private mutating func rawText(closing element: String) -> HTMLToken {
        let start = index
        let closer = Array(("</" + element).unicodeScalars)
        while index < scalars.count, !(element != "plaintext" && matchesEndTag(closer, at: index)) { index += 1 }
        return .rawText(string(start, index), element: element)
    }

    private func matchesEndTag(_ closer: [Unicode.Scalar], at position: Int) -> Bool {
        guard position + closer.count <= scalars.count else { return false }
        for (offset, expected) in closer.enumerated() where lower(scalars[position + offset]) != expected {
            return false
        }
        let after = position + closer.count
        return after == scalars.count || isSpace(scalars[after]) || scalars[after] == "/" || scalars[after] == ">"
    }

    private mutating func skipComment() {
        let commentStart = Array("<!--".unicodeScalars)
        if index + 4 <= scalars.count, Array(scalars[index..<index + 4]) == commentStart {
            index += 4
            // "<!-->" and "<!--->" close at once (13.2.5.43); otherwise find "-->".
            if index < scalars.count, scalars[index] == ">" { index += 1; return }
            if index + 1 < scalars.count, scalars[index] == "-", scalars[index + 1] == ">" { index += 2; return }
            while index < scalars.count, !(scalars[index] == "-" && hasPrefix("-->", at: index)) { index += 1 }
            index = Swift.min(scalars.count, index + 3)
        } else {
            skipBogusComment()
        }
    }

    private mutating func skipBogusComment() {
        while index < scalars.count, scalars[index] != ">" { index += 1 }
        index = Swift.min(scalars.count, index + 1)
    }

    private func hasPrefix(_ text: String, at position: Int) -> Bool {
        let wanted = Array(text.unicodeScalars)
        return position + wanted.count <= scalars.count && Array(scalars[position..<position + wanted.count]) == wanted
    }

    private func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\u{0C}"
    }

    private func lower(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        (0x41...0x5A).contains(scalar.value) ? Unicode.Scalar(scalar.value + 32)! : scalar
    }

    private func string(_ start: Int, _ end: Int) -> String {
        String(String.UnicodeScalarView(scalars[start..<end]))
    }
}
