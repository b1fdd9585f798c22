@testable import Activity

/// Hashtags, mentions and plain text → HTML: never crash; every tag found is made of word
/// characters and is linked in the HTML; the HTML holds only the elements it may write, and
/// the text it shows is the input's (whitespace aside).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlainText(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = fuzzText(start, count)
    let tags = TextParser.hashtags(in: text)
    for tag in tags {
        fuzzCheck(!tag.isEmpty && tag.allSatisfy(TextScanner.isWord), "tag \(tag) from \(text)")
    }
    fuzzCheck(Set(tags.map { $0.lowercased() }).count == tags.count, "repeated tags \(tags)")
    for mention in TextParser.mentions(in: text) {
        fuzzCheck(!mention.username.isEmpty, "empty mention in \(text)")
        fuzzCheck(mention.domain.map { WebFingerResource.isAuthority(Substring($0)) } ?? true, "domain of \(mention)")
    }
    // Mentions left as written (no URL), so the HTML shows exactly the input's text.
    let html = TextParser.html(fromPlainText: text, hashtagURL: { "https://node.example/tags/\($0)" },
                               mentionURL: { _ in nil })
    for tag in tags {
        fuzzCheck(html.contains("#<span>\(HTMLText.escape(tag))</span>"), "tag \(tag) not linked in \(html)")
    }
    let allowed: Set<String> = ["p", "br", "a", "span"]
    for token in HTMLTokenizer(html) {
        if case .startTag(let name, _) = token { fuzzCheck(allowed.contains(name), "element \(name) in \(html)") }
        if case .rawText(_, let element) = token { fuzzCheck(false, "raw text \(element) in \(html)") }
    }
    // Compared scalar by scalar without whitespace: the HTML collapses runs of it.
    let shown = HTMLSanitizer.plainText(html).unicodeScalars.filter { !$0.properties.isWhitespace }
    // NUL is dropped by the HTML escaping.
    let written = text.unicodeScalars.filter { !$0.properties.isWhitespace && $0 != "\u{0}" }
    fuzzCheck(shown.elementsEqual(written), "text changed: \(text.debugDescription) → \(html.debugDescription)")
    return 0
}
