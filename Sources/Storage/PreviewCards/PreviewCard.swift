import Foundation
import GRDB

/// A link preview: what a linked page says about itself (OpenGraph), stored once per URL and
/// shared by every post linking it.
public struct PreviewCard: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "preview_cards"
    /// Snowflake id.
    public var id: Int64
    /// The link as it appears in posts.
    public var url: String
    /// Page title.
    public var title: String = ""
    /// Page summary.
    public var description: String = ""
    /// `link`, `photo` or `video`.
    public var type: String = "link"
    /// Author named by the page.
    public var authorName: String = ""
    /// Site name (`og:site_name`).
    public var providerName: String = ""
    /// The page's preview image URL.
    public var imageUrl: String?
    /// Image width in pixels, 0 when unknown.
    public var width: Int = 0
    /// Image height in pixels, 0 when unknown.
    public var height: Int = 0
    /// When the page was read.
    public var createdAt: Date

    /// Creates a card for `url`.
    public init(id: Int64 = Snowflake.next(), url: String, createdAt: Date = Date()) {
        self.id = id
        self.url = url
        self.createdAt = createdAt
    }
}
