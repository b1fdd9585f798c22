import Foundation
import Testing
@testable import Activity

/// Remote HTML and post text built to make the parsers do quadratic work: one tag with 200,000
/// attributes, 100,000 unclosed tags, combining marks split by tags, a URL followed by a long
/// run of `)`. Each must come out correct and bounded. Work is bounded by structure (how many
/// attributes a token keeps, how long the output is); the time limit is only a hang guard,
/// since a quadratic pass over these inputs takes tens of minutes.
@Suite("Hostile markup", .timeLimit(.minutes(2)))
struct HostileMarkupTests {
    static let rel = "rel=\"nofollow noopener noreferrer\""

    /// `count` distinct junk attributes: ` a0="1" a1="1" ...`.
    static func junkAttributes(_ count: Int) -> String {
        var text = ""
        text.reserveCapacity(count * 10)
        for index in 0..<count { text += " a\(index)=\"1\"" }
        return text
    }

    @Test func tokenizerKeepsABoundedNumberOfAttributes() throws {
        var tokenizer = HTMLTokenizer("<a href=\"https://ok.example/\"\(Self.junkAttributes(200_000))>x</a>")
        let first = tokenizer.next()
        guard case .startTag(let name, let attributes) = try #require(first) else {
            Issue.record("expected a start tag")
            return
        }
        #expect(name == "a")
        #expect(attributes.count == HTMLTokenizer.maxAttributes)
        #expect(attributes.first == HTMLAttribute(name: "href", value: "https://ok.example/"))
        #expect(attributes.last == HTMLAttribute(name: "a\(HTMLTokenizer.maxAttributes - 2)", value: "1"))
        #expect(tokenizer.next() == .text("x"))
        #expect(tokenizer.next() == .endTag(name: "a"))
        #expect(tokenizer.next() == nil)
    }

    @Test func linkWithTwoHundredThousandAttributesSanitizes() {
        let html = "<a href=\"https://ok.example/\" class=\"mention\"\(Self.junkAttributes(200_000)) onclick=\"alert(1)\">"
            + "@bob</a> after"
        #expect(HTMLSanitizer.sanitize(html)
            == "<a href=\"https://ok.example/\" \(Self.rel) class=\"mention\">@bob</a> after")
    }

    @Test func attributesPastTheCapAreDropped() {
        // A dangerous href hidden behind 200,000 others is dropped, never kept.
        let html = "<a\(Self.junkAttributes(200_000)) href=\"javascript:alert(1)\" onmouseover=x>t</a>"
        #expect(HTMLSanitizer.sanitize(html) == "<a \(Self.rel)>t</a>")
    }

    @Test func repeatedAttributeKeepsTheFirst() {
        let repeated = String(repeating: " href=\"https://second.example/\"", count: 200_000)
        let html = "<a href=\"https://first.example/\"\(repeated)>t</a>"
        #expect(HTMLSanitizer.sanitize(html) == "<a href=\"https://first.example/\" \(Self.rel)>t</a>")
    }

    @Test func hrefPaddedWithControlCharactersIsTrimmed() {
        // URL parsers strip leading and trailing C0 controls and spaces; so does safeURL.
        let padding = String(repeating: "\u{1}", count: 500_000)
        let html = "<a href=\"\(padding) https://ok.example/\(padding)\">t</a><a href=\"\(padding)javascript:x\">u</a>"
        #expect(HTMLSanitizer.sanitize(html) == "<a href=\"https://ok.example/\" \(Self.rel)>t</a><a \(Self.rel)>u</a>")
    }

    @Test func hundredThousandUnclosedTagsFlattenPastTheNestingLimit() {
        let depth = HTMLSanitizer.maxNesting
        let output = HTMLSanitizer.sanitize(String(repeating: "<b>", count: 100_000) + "deep")
        #expect(output == String(repeating: "<b>", count: depth) + "deep" + String(repeating: "</b>", count: depth))
    }

    @Test func hundredThousandUnclosedParagraphsCloseEachOther() {
        let output = HTMLSanitizer.sanitize(String(repeating: "<p>x", count: 100_000))
        #expect(output == String(repeating: "<p>x</p>", count: 100_000))
    }

    @Test func hundredThousandNestedDroppedElementsDropTheirContent() {
        let html = String(repeating: "<svg><em>", count: 100_000) + "hidden" + String(repeating: "</svg>", count: 100_000)
            + "<em>shown</em>"
        #expect(HTMLSanitizer.sanitize(html) == "<em>shown</em>")
        #expect(HTMLSanitizer.plainText(html) == "shown")
    }

    @Test(arguments: [
        ("<ul><blockquote><span class=\"h-card\"><em><code><strong>", HTMLSanitizer.maxNesting),
        // A new li closes the open one and all inside it, so this stays shallow: ul + the 7 of a unit.
        ("<ul><li><blockquote><span class=\"h-card\"><a href=\"https://x.example/\"><em><code>", 8),
    ])
    func mixedUnclosedTagsStayBalancedAndWithinTheNestingLimit(unit: String, expectedDepth: Int) {
        let html = String(repeating: unit, count: 20_000) + "end"
        let output = HTMLSanitizer.sanitize(html)
        let (deepest, balanced) = Self.nesting(of: output)
        #expect(balanced)
        #expect(deepest == expectedDepth)
        #expect(output.contains(">end</"))
        // Linear: each kept tag gains at most a forced rel and an end tag.
        #expect(output.utf8.count < html.utf8.count * 3)
    }

    /// The deepest nesting of the sanitiser's output, and whether every end tag closes the
    /// innermost open element and nothing is left open.
    static func nesting(of html: String) -> (deepest: Int, balanced: Bool) {
        var open: [Substring] = []
        var deepest = 0
        // The first piece is whatever comes before the first `<`.
        for piece in html.split(separator: "<", omittingEmptySubsequences: false).dropFirst() {
            let name = piece.prefix { $0 != " " && $0 != ">" }
            if name == "br" { continue }
            if name.hasPrefix("/") {
                guard open.popLast() == name.dropFirst() else { return (deepest, false) }
            } else {
                open.append(name)
                deepest = max(deepest, open.count)
            }
        }
        return (deepest, open.isEmpty)
    }

    @Test func combiningMarksSplitByTagsBecomePlainText() {
        let html = "a" + String(repeating: "<b>\u{301}", count: 100_000)
        let text = HTMLSanitizer.plainText(html)
        #expect(text.unicodeScalars.count == 100_001)
        #expect(text.unicodeScalars.first == "a")
        #expect(text.unicodeScalars.dropFirst().allSatisfy { $0 == "\u{301}" })
    }

    @Test func plainTextParagraphsAfterACombiningRun() {
        let html = "<p>e" + String(repeating: "<i>\u{301}</i>", count: 50_000) + "</p><p>next</p>"
        let text = HTMLSanitizer.plainText(html)
        #expect(text == "e" + String(repeating: "\u{301}", count: 50_000) + "\n\nnext")
    }

    @Test func urlFollowedByManyParenthesesKeepsOnlyTheURL() {
        let closers = String(repeating: ")", count: 100_000)
        let html = TextParser.html(fromPlainText: "see http://a.example/x\(closers)", hashtagURL: { $0 }, mentionURL: { _ in nil })
        let link = "<a href=\"http://a.example/x\" rel=\"nofollow noopener noreferrer\" target=\"_blank\">http://a.example/x</a>"
        #expect(html == "<p>see \(link)\(closers)</p>")
    }

    @Test func urlFollowedByManyDotsKeepsOnlyTheURL() {
        let dots = String(repeating: ".", count: 100_000)
        let html = TextParser.html(fromPlainText: "https://a.example/(x)\(dots) #tag", hashtagURL: { "https://n.example/tags/\($0)" },
                                   mentionURL: { _ in nil })
        #expect(html.hasPrefix("<p><a href=\"https://a.example/(x)\" "))
        #expect(html.contains("</a>\(dots) <a href=\"https://n.example/tags/tag\""))
        #expect(TextParser.hashtags(in: "https://a.example/(x)\(dots) #tag") == ["tag"])
    }
}
