import Core
import Foundation
import Storage

/// Mastodon's `PreviewCard` entity (docs.joinmastodon.org/entities/PreviewCard), and with
/// `history` its `TrendsLink` form.
public struct APIPreviewCard: Codable, Sendable, Equatable {
    /// The linked page.
    public var url: String
    /// Page title.
    public var title: String
    /// Page summary.
    public var description: String
    /// Language of the page (not detected).
    @Nullable public var language: String?
    /// `link`, `photo` or `video`.
    public var type: String
    /// Fediverse authors (none recognised).
    public var authors: [APIEmpty]
    /// Author named by the page.
    public var authorName: String
    /// Author's page (not read).
    public var authorUrl: String
    /// Site name.
    public var providerName: String
    /// Site address (not read).
    public var providerUrl: String
    /// Embed HTML (never offered: only link cards are built).
    public var html: String
    /// Image width.
    public var width: Int
    /// Image height.
    public var height: Int
    /// Preview image URL.
    @Nullable public var image: String?
    /// Image alt text (not read).
    public var imageDescription: String
    /// Embed URL (none).
    public var embedUrl: String
    /// Image blurhash (not computed).
    @Nullable public var blurhash: String?
    /// Publication time of the page (not read).
    @Nullable public var publishedAt: String?
    /// Daily shares over the last week, for `GET /api/v1/trends/links` only.
    public var history: [APITagHistory]?

    /// The entity of a stored card.
    public init(_ card: PreviewCard, history: [APITagHistory]? = nil) {
        url = card.url
        title = card.title
        description = card.description
        language = nil
        type = card.type
        authors = []
        authorName = card.authorName
        authorUrl = ""
        providerName = card.providerName
        providerUrl = ""
        html = ""
        width = card.width
        height = card.height
        image = card.imageUrl
        imageDescription = ""
        embedUrl = ""
        blurhash = nil
        publishedAt = nil
        self.history = history
    }
}
