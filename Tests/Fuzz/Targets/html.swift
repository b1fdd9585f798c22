@testable import Activity

/// HTML sanitiser: whatever comes in, the output holds only allowed elements, only `href`,
/// `rel` and `class` attributes, http(s) links, no script; it is balanced, no deeper than
/// the nesting limit, and sanitising it again changes nothing. Plain text never crashes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTML(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let html = fuzzText(start, count)
    let output = HTMLSanitizer.sanitize(html)
    let lowered = output.lowercased()
    fuzzCheck(!lowered.contains("<script"), "script in \(output)")
    fuzzCheck(!lowered.contains("<style"), "style in \(output)")
    var open: [String] = []
    for token in HTMLTokenizer(output) {
        switch token {
        case .startTag(let name, let attributes):
            fuzzCheck(HTMLSanitizer.allowedElements.contains(name), "element \(name) in \(output)")
            for attribute in attributes { check(attribute, of: name, in: output) }
            if name != "br" { open.append(name) }
            fuzzCheck(open.count <= HTMLSanitizer.maxNesting, "nesting \(open.count) in \(output)")
        case .endTag(let name):
            fuzzCheck(open.popLast() == name, "unbalanced </\(name)> in \(output)")
        case .rawText(_, let element):
            fuzzCheck(false, "raw text element \(element) in \(output)")
        case .text(let text):
            fuzzCheck(!text.contains("<"), "unescaped < in \(output)")
        }
    }
    fuzzCheck(open.isEmpty, "left open \(open) in \(output)")
    let again = HTMLSanitizer.sanitize(output)
    fuzzCheck(again == output, "not idempotent: \(output) became \(again)")
    _ = HTMLSanitizer.plainText(html)
    return 0
}

private func check(_ attribute: HTMLAttribute, of element: String, in output: String) {
    let allowed: Set<String> = element == "a" ? ["href", "rel", "class"] : element == "span" ? ["class"] : []
    fuzzCheck(allowed.contains(attribute.name), "attribute \(attribute.name) on \(element) in \(output)")
    let value = HTMLText.decodeEntities(attribute.value).lowercased()
    if attribute.name == "href" {
        fuzzCheck(value.hasPrefix("http://") || value.hasPrefix("https://"), "href \(value) in \(output)")
        fuzzCheck(!value.contains("\n") && !value.contains("\t"), "href with tab or newline in \(output)")
    }
    if attribute.name == "rel" { fuzzCheck(value == HTMLSanitizer.linkRel, "rel \(value) in \(output)") }
}
