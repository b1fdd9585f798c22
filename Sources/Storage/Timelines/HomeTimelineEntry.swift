import GRDB
import Foundation

/// One post (or boost) in one local account's home timeline, written at fan-out time.
public struct HomeTimelineEntry: Record, Equatable {
    /// Table name.
    public static let databaseTableName = "home_timeline"
    /// The reader.
    public var accountId: Int64
    /// The post or boost row.
    public var postId: Int64
    /// Who posted or boosted it, so unfollow and block can remove their entries.
    public var authorId: Int64

    /// Creates a timeline entry.
    public init(accountId: Int64, postId: Int64, authorId: Int64) {
        self.accountId = accountId
        self.postId = postId
        self.authorId = authorId
    }
}

extension HomeTimelineEntry {
    /// The `home_timeline` row (hand-written: see Shared/Record.swift).
    public func encode(to container: inout PersistenceContainer) {
        container["account_id"] = accountId
        container["post_id"] = postId
        container["author_id"] = authorId
    }
}
