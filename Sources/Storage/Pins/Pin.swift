import Foundation
import GRDB

/// `accountId` features its own post `postId` on its profile (Mastodon's pinned statuses):
/// made here for local accounts, learnt from `Add`/`Remove` for remote ones.
public struct Pin: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "pins"
    /// Snowflake id: pinned posts are listed newest pin first.
    public var id: Int64
    /// The author who pinned.
    public var accountId: Int64
    /// The pinned post.
    public var postId: Int64
    /// When it was pinned.
    public var createdAt: Date

    /// Creates a pin row.
    public init(id: Int64 = Snowflake.next(), accountId: Int64, postId: Int64, createdAt: Date = Date()) {
        self.id = id
        self.accountId = accountId
        self.postId = postId
        self.createdAt = createdAt
    }
}
