import Foundation
import GRDB

extension Posts {
    /// `accountId`'s boost of `postId`, if any.
    public func boost(of postId: Int64, by accountId: Int64) throws -> Post? {
        try Post.filter(Column("reblog_of_id") == postId && Column("account_id") == accountId).fetchOne(db)
    }

    /// How many posts (not boosts) `accountId` wrote.
    public func count(by accountId: Int64) throws -> Int { try Account.postsCount(of: accountId, in: db) }

    /// Remembers that `accountId`'s Idempotency-Key `key` created `postId`, replacing an expired entry.
    public func recordIdempotencyKey(_ key: String, accountId: Int64, postId: Int64) throws {
        try IdempotencyKeys.record(key: key, accountId: accountId, postId: postId, in: db)
    }

    /// Top-level posts (not boosts) `viewerId` (`nil`: anonymous) may see that match `match`,
    /// optionally only those by `authorId`, newest first.
    public func search(_ match: PostSearchMatch, visibleTo viewerId: Int64?, by authorId: Int64?, limit: Int, offset: Int) throws -> [Post] {
        let visible = Self.visibilityCondition("p", viewer: viewerId)
        var sql = "SELECT p.* FROM posts p WHERE \(visible.sql) AND p.reblog_of_id IS NULL"
        var arguments = visible.arguments
        switch match {
        case .hashtag(let name):
            sql += " AND p.id IN (SELECT ph.post_id FROM post_hashtags ph JOIN hashtags h ON h.id = ph.hashtag_id WHERE h.name = ?)"
            arguments += [name]
        case .url(let url):
            sql += " AND (p.uri = ? OR p.url = ?)"
            arguments += [url, url]
        }
        if let authorId {
            sql += " AND p.account_id = ?"
            arguments += [authorId]
        }
        sql += " ORDER BY p.id DESC LIMIT ? OFFSET ?"
        arguments += [limit, offset]
        return try Post.fetchAll(db, sql: sql, arguments: arguments)
    }
}

/// What a post search matches (`Posts.search`).
public enum PostSearchMatch: Sendable, Equatable {
    /// Posts carrying the hashtag with exactly this name.
    case hashtag(String)
    /// The post whose object id or URL is this.
    case url(String)
}
