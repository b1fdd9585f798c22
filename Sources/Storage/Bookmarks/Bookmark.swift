import Foundation
import GRDB

/// `accountId` keeps `postId` in its bookmarks (private to the account, never federated).
public struct Bookmark: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "bookmarks"
    /// Snowflake id: the bookmarks list is ordered and paged by it.
    public var id: Int64
    /// Who bookmarked.
    public var accountId: Int64
    /// The bookmarked post.
    public var postId: Int64
    /// When it was bookmarked.
    public var createdAt: Date

    /// Creates a bookmark row.
    public init(id: Int64 = Snowflake.next(), accountId: Int64, postId: Int64, createdAt: Date = Date()) {
        self.id = id
        self.accountId = accountId
        self.postId = postId
        self.createdAt = createdAt
    }
}
