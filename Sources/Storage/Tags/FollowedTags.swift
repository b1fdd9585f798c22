import Foundation
import GRDB

extension Transaction {
    /// Hashtags followed by local accounts.
    public var followedTags: FollowedTags { FollowedTags(db: session) }
}

/// Hashtags followed by local accounts.
public struct FollowedTags { let db: SQLSession }

extension FollowedTags {
    /// Makes `accountId` follow `hashtag` (following twice changes nothing).
    public func follow(_ hashtag: Hashtag, by accountId: Int64) throws {
        try db.execute(cached: "INSERT OR IGNORE INTO followed_tags(id, account_id, hashtag_id, created_at) VALUES (?, ?, ?, ?)",
                       arguments: [Snowflake.next(), accountId, hashtag.id, Date()])
    }

    /// Stops `accountId` following `hashtag`; posts already in the home timeline stay, as in Mastodon.
    public func unfollow(_ hashtag: Hashtag, by accountId: Int64) throws {
        try db.execute(cached: "DELETE FROM followed_tags WHERE account_id = ? AND hashtag_id = ?", arguments: [accountId, hashtag.id])
    }

    /// Whether `accountId` follows `hashtagId`.
    public func isFollowed(_ hashtagId: Int64, by accountId: Int64) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM followed_tags WHERE account_id = ? AND hashtag_id = ?)",
                          arguments: [accountId, hashtagId]) ?? false
    }

    /// One page of the hashtags `accountId` follows, newest follow first, each with the follow's id.
    public func followed(by accountId: Int64, page: PageBounds) throws -> [PageItem<Hashtag>] {
        let (range, rangeArguments) = page.condition("f.id")
        let rows = try Row.fetchAll(db, sql: """
            SELECT f.id AS follow_id, h.* FROM followed_tags f JOIN hashtags h ON h.id = f.hashtag_id
            WHERE f.account_id = ? AND \(range) ORDER BY \(page.order("f.id")) LIMIT ?
            """, arguments: [accountId] + StatementArguments(rangeArguments) + [page.limit])
        return try page.newestFirst(rows).map { PageItem(cursor: $0["follow_id"], item: try Hashtag(row: $0)) }
    }
}

extension FollowedTags {
    /// The hashtag named `name` (any case), created when it was never used here.
    public func hashtag(named name: String) throws -> Hashtag {
        try Hashtag.filter(Column("name") == name).fetchOne(db) ?? Hashtag(name: name).inserted(db)
    }
}
