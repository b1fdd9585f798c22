import Foundation
import GRDB

// Hashtags: the tables `hashtags`, `post_hashtags` and `followed_tags` (FollowedTags).

extension Transaction {
    /// Hashtags and their usage.
    public var tags: Tags { Tags(db: session) }
}

/// Hashtags and their usage.
public struct Tags { let db: SQLSession }

extension Tags {
    /// The hashtag named exactly `name`.
    public func find(name: String) throws -> Hashtag? { try Hashtag.filter(Column("name") == name).fetchOne(db) }

    /// Uses and distinct authors of `hashtagId` per UTC day since `start` (public and unlisted
    /// posts only, as Mastodon counts), for the days it was used, in no particular order.
    public func dailyUse(of hashtagId: Int64, since start: Date) throws -> [TagDayUse] {
        let window = Posts.madeSince(start, id: "ph.post_id")
        // created_at is stored as "YYYY-MM-DD HH:MM:SS.SSS" UTC, so its first ten characters are the day.
        let rows = try Row.fetchAll(db, sql: """
            SELECT substr(p.created_at, 1, 10) AS day, COUNT(*) AS uses, COUNT(DISTINCT p.account_id) AS accounts
            FROM post_hashtags ph JOIN posts p ON p.id = ph.post_id
            WHERE ph.hashtag_id = ? AND \(window.sql) AND p.visibility IN ('public', 'unlisted') GROUP BY day
            """, arguments: [hashtagId] + window.arguments)
        return rows.map { TagDayUse(day: $0["day"], uses: $0["uses"], accounts: $0["accounts"]) }
    }

    /// Hashtags whose name starts with `prefix` (wildcards in it match literally): the exact
    /// name first, then shorter names first, then by name.
    public func search(prefix: String, limit: Int, offset: Int) throws -> [Hashtag] {
        try Hashtag.fetchAll(db, sql: """
            SELECT * FROM hashtags WHERE name LIKE ? ESCAPE '\\' ORDER BY (name = ?) DESC, length(name), name LIMIT ? OFFSET ?
            """, arguments: [Self.likePattern(prefix: prefix), prefix, limit, offset])
    }

    /// A `LIKE ... ESCAPE '\'` pattern matching values that start with `prefix` (wildcards escaped).
    static func likePattern(prefix: String) -> String {
        prefix.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_") + "%"
    }
}

/// A hashtag's use on one UTC day.
public struct TagDayUse: Sendable, Equatable {
    /// The day, `YYYY-MM-DD`.
    public var day: String
    /// Posts carrying the hashtag that day.
    public var uses: Int
    /// Distinct authors of those posts.
    public var accounts: Int
}
