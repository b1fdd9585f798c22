import Activity
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
}
