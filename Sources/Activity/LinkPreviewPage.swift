import Foundation

/// What a web page says about itself for a link preview: its OpenGraph (ogp.me) and Twitter
/// card meta tags, and its `<title>`. Pure values, read with the bounded `HTMLTokenizer`.
public struct LinkPreviewPage: Sendable, Equatable {
    /// `og:title`, else `twitter:title`, else `<title>`.
    public var title = ""
    /// `og:description`, else `twitter:description`, else `<meta name="description">`.
    public var description = ""
    /// `link`, `photo` or `video`, from `og:type` (Mastodon's card types).
    public var type = "link"
    /// `og:image` (or `twitter:image`), as written.
    public var image: String?
    /// `og:image:width`, when given.
    public var width = 0
    /// `og:image:height`, when given.
    public var height = 0
    /// `og:site_name`.
    public var providerName = ""
    /// `author` or `article:author` when it is a name, not a URL.
    public var authorName = ""
    /// `og:url`, the page's canonical address.
    public var canonicalURL: String?

    /// Longest title and description kept, in characters.
    public static let maxText = 500
    /// Tokens read at most: the meta tags are in the head, so later tokens are never needed.
    public static let maxTokens = 20_000

    /// Creates an empty page description.
    public init() {}

    /// Reads the meta tags and title of `html`, stopping at `<body>` or after `maxTokens` tokens.
    public static func parse(_ html: String) -> LinkPreviewPage {
        var meta: [String: String] = [:]
        var titleTag = ""
        for (count, token) in HTMLTokenizer(html).enumerated() {
            guard count < maxTokens else { break }
            switch token {
            case .startTag("body", _): return build(meta, titleTag)
            case .startTag("meta", let attributes): record(attributes, into: &meta)
            case .rawText(let text, "title") where titleTag.isEmpty: titleTag = text
            default: continue
            }
        }
        return build(meta, titleTag)
    }

    private static func record(_ attributes: [HTMLAttribute], into meta: inout [String: String]) {
        let key = attributes.first { $0.name == "property" || $0.name == "name" }?.value.lowercased()
        guard let key, let content = attributes.first(where: { $0.name == "content" })?.value, meta[key] == nil else { return }
        meta[key] = HTMLText.decodeEntities(content)
    }

    private static func build(_ meta: [String: String], _ titleTag: String) -> LinkPreviewPage {
        var page = LinkPreviewPage()
        page.title = clip(meta["og:title"] ?? meta["twitter:title"] ?? HTMLText.decodeEntities(titleTag))
        page.description = clip(meta["og:description"] ?? meta["twitter:description"] ?? meta["description"] ?? "")
        let kind = meta["og:type"]?.lowercased() ?? ""
        page.type = kind.hasPrefix("video") ? "video" : (kind == "photo" || kind == "image" ? "photo" : "link")
        page.image = (meta["og:image"] ?? meta["og:image:url"] ?? meta["og:image:secure_url"] ?? meta["twitter:image"]).flatMap(httpURL)
        page.width = meta["og:image:width"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { min(max($0, 0), 100_000) } ?? 0
        page.height = meta["og:image:height"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { min(max($0, 0), 100_000) } ?? 0
        page.providerName = clip(meta["og:site_name"] ?? "")
        let author = meta["author"] ?? meta["article:author"] ?? ""
        page.authorName = httpURL(author) == nil ? clip(author) : ""
        page.canonicalURL = meta["og:url"].flatMap(httpURL)
        return page
    }

    private static func clip(_ text: String) -> String {
        String(text.split(whereSeparator: \.isWhitespace).joined(separator: " ").prefix(maxText))
    }

    /// `text` when it is an absolute http(s) URL of reasonable length.
    static func httpURL(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let lower = trimmed.lowercased()
        guard trimmed.count <= 2048, lower.hasPrefix("https://") || lower.hasPrefix("http://") else { return nil }
        return trimmed
    }

    /// The first link of post HTML worth a preview: an `http(s)` `<a href>` that is not a
    /// mention or a hashtag (by its class or `rel="tag"`, or text starting with `@` or `#`).
    public static func firstLink(inPostHTML html: String) -> String? {
        var candidate: String?
        var text = ""
        for token in HTMLTokenizer(html).prefix(maxTokens) {
            switch token {
            case .startTag("a", let attributes):
                let value = { (name: String) in attributes.first { $0.name == name }?.value.lowercased() ?? "" }
                let skip = value("class").contains("mention") || value("class").contains("hashtag") || value("rel").split(separator: " ").contains("tag")
                candidate = skip ? nil : attributes.first { $0.name == "href" }.flatMap { httpURL(HTMLText.decodeEntities($0.value)) }
                text = ""
            case .text(let words) where candidate != nil: text += words
            case .endTag("a"):
                let shown = text.trimmingCharacters(in: .whitespaces)
                if let link = candidate, !shown.hasPrefix("#"), !shown.hasPrefix("@") { return link }
                candidate = nil
            default: continue
            }
        }
        return nil
    }
}
