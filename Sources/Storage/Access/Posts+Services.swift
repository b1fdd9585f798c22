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
        let visible = Self.visibleCondition("p", viewer: viewerId)
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

    /// The condition on posts aliased `alias` that holds when `viewerId` (`nil`: anonymous)
    /// may see the row: a private copy of FedNode's `PostVisibility.condition`, which the
    /// parallel +API refactor moves here as `Posts.visibilityCondition`; use that one instead
    /// when merging.
    private static func visibleCondition(_ alias: String, viewer viewerId: Int64?) -> (sql: String, arguments: StatementArguments) {
        let p = alias
        guard let viewerId else {
            return ("(\(p).visibility IN ('public', 'unlisted') AND \(notDomainBlocked(p)))", [])
        }
        let sql = """
            ((\(p).visibility IN ('public', 'unlisted') OR \(p).account_id = ?
              OR (\(p).visibility = 'private' AND EXISTS (SELECT 1 FROM follows vf WHERE vf.account_id = ?
                  AND vf.target_account_id = \(p).account_id AND vf.state = 'accepted'))
              OR EXISTS (SELECT 1 FROM mentions vm WHERE vm.post_id = \(p).id AND vm.account_id = ?))
             AND NOT EXISTS (SELECT 1 FROM blocks vb WHERE (vb.account_id = ? AND vb.target_account_id = \(p).account_id)
                  OR (vb.account_id = \(p).account_id AND vb.target_account_id = ?))
             AND \(notDomainBlocked(p)))
            """
        return (sql, [viewerId, viewerId, viewerId, viewerId, viewerId])
    }

    private static func notDomainBlocked(_ p: String) -> String {
        "NOT EXISTS (SELECT 1 FROM accounts va JOIN domain_blocks vd ON vd.domain = va.domain WHERE va.id = \(p).account_id)"
    }

    // MARK: Also declared, same signature and query, by the +API (created, hashtagNames) and
    // +Federation (delete, hashtagNames) files of the parallel refactors: keep one copy when merging.

    /// Removes a post (or boost); foreign keys cascade to what depends on it.
    /// - Returns: Whether a row was deleted.
    @discardableResult
    public func delete(_ post: Post) throws -> Bool { try post.delete(db) }

    /// The post `accountId` created with the idempotency `key` within the last hour, if it
    /// still exists.
    public func created(withIdempotencyKey key: String, by accountId: Int64) throws -> Post? {
        try IdempotencyKeys.post(key: key, accountId: accountId, in: db)
    }

    /// The names of the hashtags `postId` carries, as first spelt.
    public func hashtagNames(of postId: Int64) throws -> [String] {
        try String.fetchAll(db, sql: """
            SELECT h.name FROM hashtags h JOIN post_hashtags ph ON ph.hashtag_id = h.id WHERE ph.post_id = ?
            """, arguments: [postId])
    }
}

/// What a post search matches (`Posts.search`).
public enum PostSearchMatch: Sendable, Equatable {
    /// Posts carrying the hashtag with exactly this name.
    case hashtag(String)
    /// The post whose object id or URL is this.
    case url(String)
}
