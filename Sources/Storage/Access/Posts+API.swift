import Foundation
import GRDB

extension Posts {
    /// An SQL condition on the posts table aliased `alias` that holds when `viewerId` (or an
    /// anonymous viewer, `nil`) may see the row, with its arguments: public and unlisted posts
    /// are seen by everyone, followers-only posts by the author's accepted followers, direct
    /// posts by the people mentioned; the author always; never anyone in a block relation with
    /// the author, or on a domain the node blocks.
    static func visibilityCondition(_ alias: String, viewer viewerId: Int64?) -> (sql: String, arguments: StatementArguments) {
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

    /// SQL for "the boosted post, if any, is visible too", on the posts table aliased `alias`.
    static func originalVisibilityCondition(_ alias: String, viewer: Int64?) -> (sql: String, arguments: StatementArguments) {
        let (visible, arguments) = visibilityCondition("o", viewer: viewer)
        return ("(\(alias).reblog_of_id IS NULL OR EXISTS (SELECT 1 FROM posts o WHERE o.id = \(alias).reblog_of_id AND \(visible)))", arguments)
    }

    private static func notDomainBlocked(_ p: String) -> String {
        "NOT EXISTS (SELECT 1 FROM accounts va JOIN domain_blocks vd ON vd.domain = va.domain WHERE va.id = \(p).account_id)"
    }

    /// Whether the post `id` exists and `viewer` (`nil`: anonymous) may see it, by the rule of
    /// `visibilityCondition` (the post alone, not what it boosts).
    public func isVisible(_ id: Int64, to viewer: Int64?) throws -> Bool {
        let (sql, arguments) = Self.visibilityCondition("p", viewer: viewer)
        return try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM posts p WHERE p.id = ? AND \(sql))",
                                 arguments: [id] + arguments) ?? false
    }

    /// The comments under `postId` and their replies that `viewer` may see, in thread order
    /// (depth first, siblings oldest first), at most `maxDepth` levels and `limit` posts.
    public func descendants(of postId: Int64, viewer: Int64?, maxDepth: Int, limit: Int) throws -> [Post] {
        let (visible, arguments) = Self.visibilityCondition("p", viewer: viewer)
        // Each row's path is its ancestors' zero-padded ids, so sorting by path is a depth-first walk.
        return try Post.fetchAll(db, sql: """
            WITH RECURSIVE thread(id, path, depth) AS (
              SELECT id, printf('%020d', id), 1 FROM posts WHERE in_reply_to_id = ?
              UNION ALL
              SELECT c.id, thread.path || '/' || printf('%020d', c.id), thread.depth + 1
              FROM posts c JOIN thread ON c.in_reply_to_id = thread.id WHERE thread.depth < ?
            )
            SELECT p.* FROM thread JOIN posts p ON p.id = thread.id WHERE \(visible) ORDER BY thread.path LIMIT ?
            """, arguments: [postId, maxDepth] + arguments + [limit])
    }

    /// The post `accountId` created with the idempotency `key` within the last hour, if it
    /// still exists.
    public func created(withIdempotencyKey key: String, by accountId: Int64) throws -> Post? {
        try IdempotencyKeys.post(key: key, accountId: accountId, in: db)
    }

    /// Replies to `postId` that everyone may see (public and unlisted), as Mastodon's
    /// status_stats count them; through a cached statement, as every rendered status asks.
    public func publicReplyCount(of postId: Int64) throws -> Int {
        try APIQuerySupport.cachedCount(db, "SELECT COUNT(*) FROM posts WHERE in_reply_to_id = ? AND visibility IN ('public', 'unlisted')", postId)
    }

    /// The ids (URIs) of the first `limit` public and unlisted replies to `postId`, oldest first.
    public func publicReplyURIs(of postId: Int64, limit: Int) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT uri FROM posts WHERE in_reply_to_id = ? AND visibility IN ('public','unlisted') ORDER BY id LIMIT ?",
                            arguments: [postId, limit])
    }

    /// How many boosts `postId` has (cached statement).
    public func boostCount(of postId: Int64) throws -> Int {
        try APIQuerySupport.cachedCount(db, "SELECT COUNT(*) FROM posts WHERE reblog_of_id = ?", postId)
    }

    /// Whether `accountId` boosted `postId` (cached statement).
    public func isBoosted(_ postId: Int64, by accountId: Int64) throws -> Bool {
        try APIQuerySupport.cachedCount(db, "SELECT COUNT(*) FROM posts WHERE reblog_of_id = ? AND account_id = ?", postId, accountId) > 0
    }

    /// The newest post's (or boost's) time of `accountId`, if any (cached statement).
    public func lastPostDate(of accountId: Int64) throws -> Date? {
        try Date.fetchOne(db.cachedStatement(sql: "SELECT created_at FROM posts WHERE account_id = ? ORDER BY id DESC LIMIT 1"), arguments: [accountId])
    }

    /// The accounts mentioned in `postId` (cached statement).
    public func mentionedAccounts(of postId: Int64) throws -> [Account] {
        try Account.fetchAll(db.cachedStatement(sql: "SELECT a.* FROM accounts a JOIN mentions m ON m.account_id = a.id WHERE m.post_id = ?"),
                             arguments: [postId])
    }

    /// One page of the accounts that boosted `postId` with a boost `viewer` may see, newest
    /// boost first, each with the boost's id.
    public func boosters(of postId: Int64, viewer: Int64?, page: PageBounds) throws -> [PageItem<Account>] {
        let visible = Self.visibilityCondition("r", viewer: viewer)
        return try APIQuerySupport.postActors(in: "posts", postColumn: "reblog_of_id", postId: postId, filter: visible.sql, arguments: visible.arguments,
                              page: page, db: db)
    }
}

/// Query pieces shared by the client API's queries in this module.
enum APIQuerySupport {
    /// One page of the accounts behind the rows of `table` (aliased `r`) whose `postColumn` is
    /// `postId` and that match `filter`, newest row first, each with the row's id.
    static func postActors(in table: String, postColumn: String, postId: Int64, filter: String, arguments filterArguments: StatementArguments,
                    page: PageBounds, db: Database) throws -> [PageItem<Account>] {
        let (range, rangeArguments) = page.condition("r.id")
        let arguments: StatementArguments = [postId] + StatementArguments(rangeArguments) + filterArguments
        let rows = try Row.fetchAll(db, sql: """
            SELECT r.id AS row_id, a.* FROM \(table) r JOIN accounts a ON a.id = r.account_id
            WHERE r.\(postColumn) = ? AND \(range) AND \(filter) ORDER BY \(page.order("r.id")) LIMIT ?
            """, arguments: arguments + [page.limit])
        return try page.newestFirst(rows).map { PageItem(cursor: $0["row_id"], item: try Account(row: $0)) }
    }

    /// A count through a cached prepared statement: rendering a page runs the same dozen queries
    /// for every post, and preparing them each time was most of its cost.
    static func cachedCount(_ db: Database, _ sql: String, _ arguments: Int64...) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: sql), arguments: StatementArguments(arguments)) ?? 0
    }
}
