import Foundation
import Testing
import Activity

@Suite("HTML sanitiser")
struct HTMLSanitizerTests {
    static let rel = "rel=\"nofollow noopener noreferrer\""

    @Test func mastodonContentKeepsItsMarkup() throws {
        let note = try #require(try TestFiles.object("mastodon-create-note.json").object?.object?.content)
        #expect(HTMLSanitizer.sanitize(note) == "<p><span class=\"h-card\"><a href=\"https://pixel.example/bob\" \(Self.rel) "
            + "class=\"u-url mention\">@<span>bob</span></a></span> Same light here this morning! "
            + "<a href=\"https://mastodon.example/tags/Sunrise\" \(Self.rel) class=\"mention hashtag\">#<span>Sunrise</span></a></p>")
    }

    @Test func mastodonLinkShorteningSpansSurvive() throws {
        let field = try #require(try TestFiles.object("mastodon-person.json").attachment.first?.value)
        #expect(HTMLSanitizer.sanitize(field) == "<a href=\"https://alice-photo.example\" \(Self.rel)>"
            + "<span class=\"invisible\">https://</span><span>alice-photo.example</span><span class=\"invisible\"></span></a>")
    }

    @Test(arguments: [
        ("<script>alert(1)</script>hello", "hello"),
        ("<SCRIPT SRC=https://evil.example/x.js></SCRIPT>hi", "hi"),
        ("<script>document.write('</p><b>')</script>ok", "ok"),
        ("<style>body{display:none}</style><p>x</p>", "<p>x</p>"),
        ("<iframe src=\"https://evil.example\">fallback</iframe>after", "after"),
        ("<svg><script>alert(1)</script><text>t</text></svg>after", "after"),
        ("<scr<script>ipt>alert(1)</script>", "ipt&gt;alert(1)"),
        ("<script/xss src=x></script>z", "z"),
        // Browsers end <noscript> at the first </noscript>, even inside a quoted value; so do we.
        ("<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\"></noscript>q", "&quot;&gt;q"),
    ])
    func scriptsAndTheirContentVanish(html: String, expected: String) {
        #expect(HTMLSanitizer.sanitize(html) == expected)
    }

    @Test(arguments: [
        ("<img src=x onerror=alert(1)>", ""),
        ("<p onclick=\"alert(1)\" style=\"color:red\" class=\"x\">t</p>", "<p>t</p>"),
        ("<a href=\"javascript:alert(1)\">x</a>", "<a \(rel)>x</a>"),
        ("<a href=\"JaVaScRiPt:alert(1)\">x</a>", "<a \(rel)>x</a>"),
        ("<a href=\" javascript:alert(1)\">x</a>", "<a \(rel)>x</a>"),
        ("<a href=\"java\tscript:alert(1)\">x</a>", "<a \(rel)>x</a>"),
        ("<a href=\"jav&#x61;script:alert(1)\">x</a>", "<a \(rel)>x</a>"),
        ("<a href=\"&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)\">x</a>", "<a \(rel)>x</a>"),
        ("<a href=\"&#106avascript:alert(1)\">x</a>", "<a \(rel)>x</a>"),
        ("<a href=\"data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==\">x</a>", "<a \(rel)>x</a>"),
        ("<a href=\"vbscript:msgbox(1)\">x</a>", "<a \(rel)>x</a>"),
        ("<a href=\"/relative\">x</a>", "<a \(rel)>x</a>"),
        ("<a href=\"https://ok.example/\" onmouseover=\"alert(1)\" target=\"_top\" rel=\"opener\">x</a>",
         "<a href=\"https://ok.example/\" \(rel)>x</a>"),
        ("<a href='https://ok.example/?a=1&amp;b=\"2\"'>x</a>", "<a href=\"https://ok.example/?a=1&amp;b=&quot;2&quot;\" \(rel)>x</a>"),
        ("<a href=\"h&#116;tps://ok.example/\">x</a>", "<a href=\"https://ok.example/\" \(rel)>x</a>"),
        ("<a href=https://ok.example/x class=\"mention evil hashtag\">x</a>",
         "<a href=\"https://ok.example/x\" \(rel) class=\"mention hashtag\">x</a>"),
        ("<span class=\"h-card evil\" style=\"position:fixed\">x</span>", "<span class=\"h-card\">x</span>"),
    ])
    func dangerousAttributesAndURLsAreDropped(html: String, expected: String) {
        #expect(HTMLSanitizer.sanitize(html) == expected)
    }

    @Test(arguments: [
        ("<p>open", "<p>open</p>"),
        ("<p><strong>bold <em>both</p> after", "<p><strong>bold <em>both</em></strong></p> after"),
        ("</p>stray</b>", "stray"),
        ("<ul><li>one<li>two</ul>", "<ul><li>one</li><li>two</li></ul>"),
        ("<a href=\"https://a.example\">one<a href=\"https://b.example\">two</a>",
         "<a href=\"https://a.example\" \(rel)>one</a><a href=\"https://b.example\" \(rel)>two</a>"),
        ("<b><i>x</b></i>", "<b><i>x</i></b>"),
        ("<img src=\"x\" onerror=\"alert(1)\"", ""),
        ("text <p class=\"x", "text "),
        ("<div><h1>Title</h1><table><tr><td>cell</td></tr></table></div>", "Titlecell"),
        ("<br/>a<br>b<BR />c", "<br>a<br>b<br>c"),
        ("<blockquote><pre><code>let x = 1 &lt; 2</code></pre></blockquote>",
         "<blockquote><pre><code>let x = 1 &lt; 2</code></pre></blockquote>"),
        ("<p>a</p><!-- <script>alert(1)</script> --><p>b</p>", "<p>a</p><p>b</p>"),
        ("<!--><script>alert(1)</script>-->x", "--&gt;x"),
        ("<!DOCTYPE html><?xml version=\"1.0\"?>z", "z"),
    ])
    func outputIsWellFormed(html: String, expected: String) {
        #expect(HTMLSanitizer.sanitize(html) == expected)
    }

    @Test(arguments: [
        ("&lt;script&gt;alert(1)&lt;/script&gt;", "&lt;script&gt;alert(1)&lt;/script&gt;"),
        ("&#60;script&#62;", "&lt;script&gt;"),
        ("&#x3C;img src=x onerror=alert(1)&#x3E;", "&lt;img src=x onerror=alert(1)&gt;"),
        ("Tom &amp; Jerry &quot;quoted&quot; &hellip; &bogus; &", "Tom &amp; Jerry &quot;quoted&quot; … &amp;bogus; &amp;"),
        ("a < b > c", "a &lt; b &gt; c"),
        ("&#0; &#xD800; &#x110000;", "\u{FFFD} \u{FFFD} \u{FFFD}"),
        ("<\u{301}script>", "&lt;\u{301}script&gt;"),
    ])
    func entityTricksStayText(html: String, expected: String) {
        #expect(HTMLSanitizer.sanitize(html) == expected)
    }

    @Test func deepNestingIsFlattened() {
        let html = String(repeating: "<b>", count: 1000) + "deep" + String(repeating: "</b>", count: 1000)
        let clean = HTMLSanitizer.sanitize(html)
        #expect(clean.components(separatedBy: "<b>").count - 1 == 32)
        #expect(clean.contains("deep"))
        #expect(clean.hasSuffix("</b>"))
    }

    @Test func remotePostsFromEachServerKeepTheirText() throws {
        for name in ["pixelfed-create-note.json", "pleroma-create-note.json", "misskey-create-note.json", "gotosocial-update-note.json"] {
            let content = try #require(try TestFiles.object(name).object?.object?.content, "\(name)")
            let clean = HTMLSanitizer.sanitize(content)
            #expect(HTMLSanitizer.plainText(clean) == HTMLSanitizer.plainText(content), "\(name)")
            #expect(!clean.contains("data-user") && !clean.contains("target="), "\(name)")
        }
    }
}

@Suite("HTML to plain text")
struct HTMLPlainTextTests {
    @Test(arguments: [
        ("<p>one</p><p>two</p>", "one\n\ntwo"),
        ("line<br>next<br/>last", "line\nnext\nlast"),
        ("<p>Tom &amp; Jerry &#8212; &#x1F985; &eacute;t&eacute;</p>", "Tom & Jerry — 🦅 été"),
        ("<p>  lots   of\n spaces </p>", "lots of spaces"),
        ("<ul><li>a</li><li>b</li></ul>after", "a\nb\n\nafter"),
        ("<script>alert(1)</script><style>p{}</style>visible", "visible"),
        ("<pre>keep   this\n  layout</pre>", "keep   this\n  layout"),
        ("&lt;b&gt;not bold&lt;/b&gt;", "<b>not bold</b>"),
        ("", ""),
    ])
    func convertsHTMLToText(html: String, text: String) {
        #expect(HTMLSanitizer.plainText(html) == text)
    }

    @Test func mastodonPostReadsNaturally() throws {
        let note = try #require(try TestFiles.object("mastodon-create-note.json").object?.object?.content)
        #expect(HTMLSanitizer.plainText(note) == "@bob Same light here this morning! #Sunrise")
    }

    @Test func misskeyPostWithLineBreak() throws {
        let note = try #require(try TestFiles.object("misskey-create-note.json").object?.object?.content)
        #expect(HTMLSanitizer.plainText(note) == "@carol@fednode.example 湖の朝焼け、すごく綺麗！\n#朝焼け $[x2 🌅]")
    }
}
