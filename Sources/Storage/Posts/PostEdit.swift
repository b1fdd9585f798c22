import Foundation
import GRDB

/// One version of an edited post, as Mastodon's status edits: the original version is kept
/// when the post is first edited, then every edited version, each written in the edit's
/// transaction.
public struct PostEdit: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "post_edits"
    /// Snowflake id: versions are listed in this order.
    public var id: Int64
    /// The edited post.
    public var postId: Int64
    /// Caption as HTML in this version.
    public var content: String
    /// Content warning in this version.
    public var spoilerText: String
    /// Whether the media was marked sensitive in this version.
    public var sensitive: Bool
    /// The attachments of this version, as JSON the API layer wrote (opaque here).
    public var media: String
    /// When this version was published (the post's creation time for the original).
    public var createdAt: Date

    /// Creates a version row.
    public init(id: Int64 = Snowflake.next(), postId: Int64, content: String, spoilerText: String, sensitive: Bool,
                media: String, createdAt: Date) {
        self.id = id
        self.postId = postId
        self.content = content
        self.spoilerText = spoilerText
        self.sensitive = sensitive
        self.media = media
        self.createdAt = createdAt
    }
}
