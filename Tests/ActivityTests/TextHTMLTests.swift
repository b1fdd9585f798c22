import Foundation
import Testing
import Activity

@Suite("Plain text to HTML")
struct TextHTMLTests {
    static func html(_ text: String, knownDomains: Set<String?> = [nil, "other.example"]) -> String {
        TextParser.html(
            fromPlainText: text,
            hashtagURL: { "https://fednode.example/tags/\($0.lowercased())" },
            mentionURL: { mention in
                knownDomains.contains(mention.domain) ? "https://\(mention.domain ?? "fednode.example")/@\(mention.username)" : nil
            })
    }

    @Test func paragraphsAndLineBreaks() {
        #expect(Self.html("one\ntwo\n\nthree") == "<p>one<br>two</p><p>three</p>")
        #expect(Self.html("a\r\nb\r\n\r\n\r\n  \nc") == "<p>a<br>b</p><p>c</p>")
        #expect(Self.html("") == "")
        #expect(Self.html(" \n\n ") == "")
    }

    /// Found by the `text` fuzz target (Tests/Fuzz/Corpus/text/lone-cr): a lone CR was dropped,
    /// so `#kip\rM` became the link `#kipM` while the post's tags said `kip`.
    @Test func loneCarriageReturnIsALineBreak() {
        #expect(TextParser.hashtags(in: "#kip\rM") == ["kip"])
        #expect(Self.html("#kip\rM") == "<p><a href=\"https://fednode.example/tags/kip\" class=\"mention hashtag\" "
            + "rel=\"tag\">#<span>kip</span></a><br>M</p>")
        #expect(Self.html("a\r\rb\r\nc") == "<p>a</p><p>b<br>c</p>")
        // Also before a combining mark, where Foundation's replacingOccurrences misses the CR.
        #expect(Self.html("a\r\u{301}b\r\n\u{301}c") == "<p>a<br>\u{301}b<br>\u{301}c</p>")
    }

    /// Found by the `text` fuzz target: a space followed by a combining mark is one Character
    /// that counts as whitespace, so a line of it was taken as blank and the mark dropped.
    @Test func combiningMarkAfterASpaceIsKept() {
        #expect(Self.html("a\n \u{65D}\nb") == "<p>a<br> \u{65D}<br>b</p>")
        #expect(HTMLSanitizer.plainText("<p>x \u{65D}y</p>") == "x \u{65D}y")
    }

    @Test func specialCharactersAreEscaped() {
        #expect(Self.html(#"1 < 2 & "x" > y <script>alert(1)</script>"#)
            == "<p>1 &lt; 2 &amp; &quot;x&quot; &gt; y &lt;script&gt;alert(1)&lt;/script&gt;</p>")
        #expect(Self.html("&amp; stays literal") == "<p>&amp;amp; stays literal</p>")
    }

    @Test func urlsBecomeLinks() {
        let expected = "<p>see <a href=\"https://example.com/a?b=1&amp;c=2\" rel=\"nofollow noopener noreferrer\" "
            + "target=\"_blank\">https://example.com/a?b=1&amp;c=2</a>.</p>"
        #expect(Self.html("see https://example.com/a?b=1&c=2.") == expected)
        #expect(Self.html("(https://en.wikipedia.org/wiki/Heron_(disambiguation))")
            .contains("href=\"https://en.wikipedia.org/wiki/Heron_(disambiguation)\""))
        #expect(Self.html("javascript:alert(1) ftp://x.example") == "<p>javascript:alert(1) ftp://x.example</p>")
    }

    @Test func urlsCannotBreakOutOfTheAttribute() {
        let html = Self.html(#"https://x.example/"onmouseover="alert(1)"#)
        #expect(!html.contains("\"onmouseover"))
        #expect(html.hasPrefix("<p><a href=\"https://x.example/\" rel="))
    }

    @Test func hashtagsLinkLikeMastodon() {
        #expect(Self.html("Morning #Birds")
            == "<p>Morning <a href=\"https://fednode.example/tags/birds\" class=\"mention hashtag\" rel=\"tag\">#<span>Birds</span></a></p>")
    }

    @Test func mentionsLinkWhenResolvedAndStayTextOtherwise() {
        #expect(Self.html("hi @bob@other.example")
            == "<p>hi <span class=\"h-card\"><a href=\"https://other.example/@bob\" class=\"u-url mention\">@<span>bob</span></a></span></p>")
        #expect(Self.html("hi @carol").contains("href=\"https://fednode.example/@carol\""))
        #expect(Self.html("hi @ghost@unknown.example") == "<p>hi @ghost@unknown.example</p>")
    }

    @Test func everythingTogether() {
        let html = Self.html("@bob@other.example look: https://pics.example/1 #Lake\n\n<3")
        #expect(html.hasPrefix("<p><span class=\"h-card\">"))
        #expect(html.contains("<a href=\"https://pics.example/1\""))
        #expect(html.contains("#<span>Lake</span></a></p><p>&lt;3</p>"))
    }
}
