import Foundation
import GRDB

extension Transaction {
    /// Trending hashtags and posts.
    public var trends: Trends { Trends(db: session) }
}

/// What is trending on this node: hashtags and posts, from public, non-sensitive posts by
/// accounts outside blocked domains.
public struct Trends { let db: SQLSession }

/// A hashtag's recent use, as the trends rank it.
public struct TrendingTag: Sendable, Equatable {
    /// The hashtag.
    public var hashtag: Hashtag
    /// Distinct authors of the posts carrying it in the window.
    public var accounts: Int
    /// Posts carrying it in the window.
    public var uses: Int
}

extension Trends {
    /// Hashtags on public, non-sensitive posts since `since`, the ones used by the most distinct
    /// authors first (then the most used, then by name).
    public func tags(since: Date, offset: Int, limit: Int) throws -> [TrendingTag] {
        let window = Posts.madeSince(since)
        let rows = try Row.fetchAll(db, sql: """
            SELECT h.*, COUNT(DISTINCT p.account_id) AS trend_accounts, COUNT(*) AS trend_uses
            FROM post_hashtags ph JOIN posts p ON p.id = ph.post_id JOIN hashtags h ON h.id = ph.hashtag_id
            JOIN accounts a ON a.id = p.account_id
            WHERE \(window.sql) AND \(Self.eligible("p", "a"))
            GROUP BY h.id ORDER BY trend_accounts DESC, trend_uses DESC, h.name LIMIT ? OFFSET ?
            """, arguments: window.arguments + [limit, offset])
        return try rows.map { TrendingTag(hashtag: try Hashtag(row: $0), accounts: $0["trend_accounts"], uses: $0["trend_uses"]) }
    }

    /// Public, non-sensitive top-level posts published since `since` that drew likes, boosts or
    /// replies, ranked by that engagement divided by their age in hours plus two (newer posts
    /// need less to rank as high). Posts `viewer` may not see (blocks) are left out.
    public func statuses(since: Date, now: Date, viewer: Int64?, offset: Int, limit: Int) throws -> [Post] {
        let visible = Posts.visibilityCondition("p", viewer: viewer)
        let engagement = "(s.favourites_count + s.reblogs_count + s.replies_count)"
        let window = Posts.madeSince(since)
        return try Post.fetchAll(db, sql: """
            SELECT p.* FROM posts p JOIN post_stats s ON s.post_id = p.id JOIN accounts a ON a.id = p.account_id
            WHERE \(window.sql) AND \(Self.eligible("p", "a")) AND \(engagement) > 0
              AND (p.in_reply_to_id IS NULL AND p.in_reply_to_uri IS NULL) AND \(visible.sql)
            ORDER BY \(engagement) * 1.0 / ((julianday(?) - julianday(p.created_at)) * 24.0 + 2.0) DESC, p.id DESC
            LIMIT ? OFFSET ?
            """, arguments: window.arguments + visible.arguments + [now, limit, offset])
    }

    /// SQL: the post aliased `p` by the account aliased `a` may trend.
    private static func eligible(_ p: String, _ a: String) -> String {
        """
        \(p).visibility = 'public' AND \(p).reblog_of_id IS NULL AND \(p).sensitive = 0 AND \(p).spoiler_text = ''
        AND \(a).discoverable = 1 AND \(Directory.listable(a))
        """
    }
}
