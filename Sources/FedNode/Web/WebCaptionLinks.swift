import Foundation

/// Makes a caption's hashtag and mention links stay on this node, as Mastodon's and Pixelfed's
/// web apps do: `#tag` opens this node's tag page and `@someone` this node's view of their
/// profile, instead of the page on the author's server.
///
/// It works on `HTMLSanitizer`'s output, whose links are always `<a href="…" rel="…"…>`, and
/// only rewrites a link that the post's own tags or mentions name: a link whose text is `#cats`
/// when the post is tagged `cats`, or `@bob` whose address is the URL of a mentioned account.
/// Every other link is kept as it is.
enum WebCaptionLinks {
    /// A sanitised link: its attributes, then its content.
    nonisolated(unsafe) private static let link = /<a href="([^"]*)"([^>]*)>(.*?)<\/a>/.dotMatchesNewlines()
    /// Markup inside a link's content.
    nonisolated(unsafe) private static let markup = /<[^>]*>/

    /// `html` with the post's tag and mention links pointing at this node's pages.
    /// - Parameters:
    ///   - html: Sanitised caption HTML.
    ///   - tags: The post's hashtags (without `#`).
    ///   - mentions: The mentioned accounts' profile URLs and their `acct` (`bob` or `bob@host`).
    static func localize(_ html: String, tags: [String], mentions: [(url: String, acct: String)]) -> String {
        guard html.contains("<a ") else { return html }
        let tagNames = Set(tags.map { $0.lowercased() })
        let mentioned = Dictionary(mentions.map { ($0.url, $0.acct) }, uniquingKeysWith: { first, _ in first })
        return html.replacing(link) { match in
            let (href, rest, content) = (String(match.1), String(match.2), String(match.3))
            let text = content.replacing(markup, with: "")
            let target: String?
            if text.hasPrefix("#"), tagNames.contains(text.dropFirst().lowercased()) {
                target = "/tags/" + (text.dropFirst().lowercased().addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "")
            } else if text.hasPrefix("@"), let acct = mentioned[unescaped(href)] {
                target = "/@" + HTMLText.escape(acct)
            } else {
                target = nil
            }
            return "<a href=\"\(target ?? href)\"\(rest)>\(content)</a>"
        }
    }

    /// An attribute value as the sanitiser escaped it, back to the text it was.
    private static func unescaped(_ value: String) -> String {
        guard value.contains("&") else { return value }
        return value.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
