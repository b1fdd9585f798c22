import Activity
@testable import Core
import Foundation
import Testing
@testable import FedNode

/// Caption links to a post's own tags and mentions open this node's pages.
@Suite("Web caption links")
struct WebCaptionLinksTests {
    @Test("a remote post's tag and mention links point at this node; other links and look-alikes stay")
    func localized() {
        let remote = """
            <p>Hi <span class="h-card"><a href="https://pix.example/users/bob?x=1&y=2" class="u-url mention">@<span>bob</span></a></span> \
            <a href="https://pix.example/discover/tags/Cats?src=hash" class="mention hashtag" rel="tag">#<span>Cats</span></a> \
            <a href="https://pix.example/discover/tags/dogs">#dogs</a> \
            <a href="https://elsewhere.example/@carol">@carol</a> <a href="https://news.example/a">a story</a></p>
            """
        let html = WebCaptionLinks.localize(HTMLSanitizer.sanitize(remote), tags: ["cats"],
                                            mentions: [(url: "https://pix.example/users/bob?x=1&y=2", acct: "bob@pix.example")])
        #expect(html.contains("<a href=\"/@bob@pix.example\" rel="))
        #expect(html.contains("<a href=\"/tags/cats\" rel="))
        #expect(html.contains("href=\"https://pix.example/discover/tags/dogs\""), "a tag the post does not carry keeps its link")
        #expect(html.contains("href=\"https://elsewhere.example/@carol\""), "an account the post does not mention keeps its link")
        #expect(html.contains("href=\"https://news.example/a\""))
        #expect(html.contains("#<span>Cats</span>"), "the text is unchanged")
    }

    @Test("text without links is returned as it is")
    func noLinks() {
        #expect(WebCaptionLinks.localize("<p>#cats &amp; dogs</p>", tags: ["cats"], mentions: []) == "<p>#cats &amp; dogs</p>")
    }

    /// What the scanner replaced: the same rewrite with Swift's `Regex`.
    static func reference(_ html: String, tags: [String], mentions: [(url: String, acct: String)]) -> String {
        let tagNames = Set(tags.map { $0.lowercased() })
        let mentioned = Dictionary(mentions.map { ($0.url, $0.acct) }, uniquingKeysWith: { first, _ in first })
        return html.replacing(/<a href="([^"]*)"([^>]*)>(.*?)<\/a>/.dotMatchesNewlines()) { match in
            let (href, rest, content) = (String(match.1), String(match.2), String(match.3))
            let text = content.replacing(/<[^>]*>/, with: "")
            var target = href
            if text.hasPrefix("#"), tagNames.contains(text.dropFirst().lowercased()) {
                target = "/tags/" + (text.dropFirst().lowercased().addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "")
            } else if text.hasPrefix("@"), let acct = mentioned[href.replacingOccurrences(of: "&amp;", with: "&")] {
                target = "/@" + acct
            }
            return "<a href=\"\(target)\"\(rest)>\(content)</a>"
        }
    }

    @Test("links that do not close, markup inside and around links, line breaks and non-ASCII text are read as the regular expression reads them",
          arguments: [
              "<p><a href=\"https://x.example/tags/Été\" rel=\"tag\">#<span>Été</span></a> and <a href=\"https://x.example/u/bob\">@bob</a></p>",
              "<a href=\"https://x.example/tags/cats\">#cats",
              "<a href=\"unclosed>#cats</a> <a href=\"https://x.example/tags/cats\">#cats</a>",
              "<a href=\"https://x.example/tags/cats\" rel=\"tag\"\n>#<b>ca</b>ts\n</a><a href=\"https://x.example/u/bob\">@<span>bob</span></a>",
              "<a href=\"https://x.example/tags/cats\">#c<ats</a> <a href=\"https://x.example/u/bob\">@bob</a",
              "<a href=\"https://x.example/tags/cats\"><a href=\"https://x.example/u/bob\">@bob</a></a>",
              "🐈 <a href=\"https://x.example/tags/cats\">#CATS</a>🐈<a href=\"https://x.example/tags/dogs\">#dogs</a>",
              "<a rel=\"x\" href=\"https://x.example/tags/cats\">#cats</a>",
          ])
    func sameAsTheRegularExpression(html: String) {
        let mentions = [(url: "https://x.example/u/bob", acct: "bob@x.example")]
        #expect(WebCaptionLinks.localize(html, tags: ["cats", "été"], mentions: mentions) == Self.reference(html, tags: ["cats", "été"], mentions: mentions))
    }
}
