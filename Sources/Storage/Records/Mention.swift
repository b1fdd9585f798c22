import GRDB

/// An account mentioned in a post (addressed to it, notified of it).
public struct PostMention: Record, Equatable {
    /// Table name.
    public static let databaseTableName = "mentions"
    /// The mentioning post.
    public var postId: Int64
    /// The mentioned account.
    public var accountId: Int64

    /// Creates a mention row.
    public init(postId: Int64, accountId: Int64) {
        self.postId = postId
        self.accountId = accountId
    }
}
