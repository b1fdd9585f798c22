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
    private static func paragraphs(of text: String) -> [[String]] {
        var paragraphs: [[String]] = []
        var current: [String] = []
        for line in lines(of: text) {
            // Scalar-wise: " \u{301}" is one Character that counts as whitespace.
            if line.unicodeScalars.allSatisfy(\.properties.isWhitespace) {
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

    /// The lines of `text`: CR LF, a lone CR and LF each end one, as in HTML's input
    /// preprocessing (13.2.3.5). Split scalar by scalar because Foundation's search skips a CR
    /// followed by a combining mark, and dropping a lone CR joined `#kip\rM` into the link
    /// `#kipM` while `hashtags(in:)` read `#kip` (found by the `text` fuzz target).
    private static func lines(of text: String) -> [String] {
        var lines: [String] = []
        var line = String.UnicodeScalarView()
        var afterCR = false
        for scalar in text.unicodeScalars {
            defer { afterCR = scalar == "\r" }
            if scalar == "\n", afterCR { continue }
            if scalar == "\n" || scalar == "\r" {
                lines.append(String(line))
                line = String.UnicodeScalarView()
            } else {
                line.append(scalar)
            }
        }
        lines.append(String(line))
        return lines
    }
}
