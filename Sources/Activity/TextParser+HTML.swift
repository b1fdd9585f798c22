extension TextParser {
    /// Plain text → safe HTML like Mastodon: paragraphs <p> on blank lines, <br> on newlines,
    /// escape &<>", link http(s) URLs (rel="nofollow noopener noreferrer" target="_blank"),
    /// hashtags as <a href=hashtagURL(tag) class="mention hashtag" rel="tag">#<span>tag</span></a>,
    /// mentions via mentionURL (nil => left as text) as
    /// <span class="h-card"><a href=... class="u-url mention">@<span>user</span></a></span>.
    /// Empty or blank text gives "".
    public static func html(fromPlainText text: String, hashtagURL: (String) -> String,
                            mentionURL: (Mention) -> String?) -> String {
        paragraphs(of: text).map { lines in
            let rendered = lines.map { line in
                TextScanner(line).segments().map { render($0, hashtagURL: hashtagURL, mentionURL: mentionURL) }.joined()
            }
            return "<p>" + rendered.joined(separator: "<br>") + "</p>"
        }.joined()
    }

    /// Lines grouped into paragraphs; blank lines (only whitespace) separate paragraphs.
    /// CR LF and a lone CR are newlines, as HTML's input preprocessing has them (13.2.3.5):
    /// dropping a lone CR instead joined `#cat\rs` into the tag `#cats`, which `hashtags(in:)`
    /// reads as `#cat`.
    private static func paragraphs(of text: String) -> [[String]] {
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var paragraphs: [[String]] = []
        var current: [String] = []
        for line in lines {
            if line.allSatisfy(\.isWhitespace) {
                if !current.isEmpty { paragraphs.append(current) }
                current = []
            } else {
                current.append(line)
            }
        }
        if !current.isEmpty { paragraphs.append(current) }
        return paragraphs
    }

    private static func render(_ segment: TextSegment, hashtagURL: (String) -> String,
                               mentionURL: (Mention) -> String?) -> String {
        switch segment {
        case .text(let text):
            return HTMLText.escape(text)
        case .url(let url):
            let safe = HTMLText.escape(url)
            return "<a href=\"\(safe)\" rel=\"nofollow noopener noreferrer\" target=\"_blank\">\(safe)</a>"
        case .hashtag(let tag):
            let href = HTMLText.escape(hashtagURL(tag))
            return "<a href=\"\(href)\" class=\"mention hashtag\" rel=\"tag\">#<span>\(HTMLText.escape(tag))</span></a>"
        case .mention(let mention, let raw):
            guard let url = mentionURL(mention) else { return HTMLText.escape(raw) }
            let user = HTMLText.escape(mention.username)
            return "<span class=\"h-card\"><a href=\"\(HTMLText.escape(url))\" class=\"u-url mention\">@<span>\(user)</span></a></span>"
        }
    }
}
