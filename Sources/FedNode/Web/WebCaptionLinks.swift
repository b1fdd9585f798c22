import Core
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
    /// `html` with the post's tag and mention links pointing at this node's pages.
    ///
    /// A link is `<a href="HREF"REST>CONTENT</a>`: HREF up to the next `"`, REST up to the next
    /// `>`, CONTENT up to the next `</a>`, as the regular expression
    /// `<a href="([^"]*)"([^>]*)>(.*?)</a>` reads it. A byte scan: the same with Swift's `Regex`
    /// took 9 % of the web feed page's CPU.
    /// - Parameters:
    ///   - html: Sanitised caption HTML.
    ///   - tags: The post's hashtags (without `#`).
    ///   - mentions: The mentioned accounts' profile URLs and their `acct` (`bob` or `bob@host`).
    static func localize(_ html: String, tags: [String], mentions: [(url: String, acct: String)]) -> String {
        guard html.contains("<a ") else { return html }
        let tagNames = Set(tags.map { $0.lowercased() })
        let mentioned = Dictionary(mentions.map { ($0.url, $0.acct) }, uniquingKeysWith: { first, _ in first })
        let bytes = Array(html.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 32)
        var (searchFrom, copiedUpTo) = (0, 0)
        while let start = bytes.firstIndex(of: linkOpen, from: searchFrom) {
            let hrefStart = start + linkOpen.count
            guard let hrefEnd = bytes[hrefStart...].firstIndex(of: UInt8(ascii: "\"")),
                  let tagEnd = bytes[(hrefEnd + 1)...].firstIndex(of: UInt8(ascii: ">")),
                  let contentEnd = bytes.firstIndex(of: linkClose, from: tagEnd + 1)
            // Where one part does not close here, it closes after no later link either (each
            // later link's parts begin at or after this one's), so the scan stays linear.
            else { break }
            let href = String(decoding: bytes[hrefStart..<hrefEnd], as: UTF8.self)
            let text = withoutMarkup(bytes[(tagEnd + 1)..<contentEnd])
            var target: String?
            if text.hasPrefix("#"), tagNames.contains(text.dropFirst().lowercased()) {
                target = "/tags/" + (text.dropFirst().lowercased().addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "")
            } else if text.hasPrefix("@"), let acct = mentioned[unescaped(href)] {
                target = "/@" + HTMLText.escape(acct)
            }
            if let target {
                out.append(contentsOf: bytes[copiedUpTo..<hrefStart])
                out.append(contentsOf: target.utf8)
                copiedUpTo = hrefEnd
            }
            searchFrom = contentEnd + linkClose.count
        }
        guard copiedUpTo > 0 else { return html }
        out.append(contentsOf: bytes[copiedUpTo...])
        return String(decoding: out, as: UTF8.self)
    }

    private static let linkOpen = Array("<a href=\"".utf8)
    private static let linkClose = Array("</a>".utf8)

    /// A link's content as text: every `<…>` taken out (a `<` that never closes stays).
    private static func withoutMarkup(_ content: ArraySlice<UInt8>) -> String {
        var text: [UInt8] = []
        var index = content.startIndex
        while index < content.endIndex {
            if content[index] == UInt8(ascii: "<") {
                // No `>` after this `<` means none after a later one either: the rest is text.
                guard let close = content[index...].firstIndex(of: UInt8(ascii: ">")) else {
                    text.append(contentsOf: content[index...])
                    break
                }
                index = close + 1
            } else {
                text.append(content[index])
                index += 1
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// An attribute value as the sanitiser escaped it, back to the text it was.
    private static func unescaped(_ value: String) -> String {
        guard value.contains("&") else { return value }
        return value.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
