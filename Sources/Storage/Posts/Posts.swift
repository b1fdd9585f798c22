import Foundation
import GRDB

// Posts and boosts: the tables `posts`, `mentions`, `post_stats` (counters kept by triggers),
// `post_origin_counts` (Posts+Threads), `idempotency_keys` (IdempotencyKeys) and `post_edits`
// (PostEdits). A post's hashtags are written here too, into the Tags tables.

extension Transaction {
    /// Posts and boosts, their mentions and hashtags.
    public var posts: Posts { Posts(db: session) }
}

/// Posts and boosts, their mentions and hashtags.
public struct Posts { let db: SQLSession }

extension Posts {
    /// The post with this id.
    public func find(id: Int64) throws -> Post? { try Post.fetchOne(db, key: id) }

    /// The post whose object id is `uri`.
    public func find(uri: String) throws -> Post? {
        try Post.fetchOne(db.cachedStatement(sql: "SELECT * FROM posts WHERE uri = ?"), arguments: [uri])
    }

    /// The posts with these ids, in the order of `ids`; unknown ids are left out.
    public func find(inOrder ids: [Int64]) throws -> [Post] { try find(ids: ids).ordered(as: ids) }

    /// The posts with these ids, in no particular order.
    public func find(ids: some Collection<Int64>) throws -> [Post] {
        try BatchQuery.records(Post.self, db, ids, sql: """
            SELECT p.* FROM \(BatchQuery.idTable) CROSS JOIN posts p WHERE p.id = \(BatchQuery.idValue)
            """)
    }

    /// Stores a new post.
    public func insert(_ post: Post) throws { try post.insert(db) }

    /// Stores every column of an existing post.
    public func update(_ post: Post) throws { try post.update(db) }

    /// Whether a post (or boost) with object id `uri` is stored.
    public func exists(uri: String) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM posts WHERE uri = ?)"), arguments: [uri]) ?? false
    }

    /// Removes a post; foreign keys cascade to its timeline entries, notifications, likes,
    /// media and boosts.
    /// - Returns: Whether a row was deleted.
    @discardableResult
    public func delete(_ post: Post) throws -> Bool { try post.delete(db) }

    /// Removes the boost with activity id `uri` made by `accountId` (never a post of its own).
    /// - Returns: Whether a boost was deleted.
    public func deleteBoost(uri: String, account accountId: Int64) throws -> Bool {
        try Post.filter(Column("uri") == uri && Column("account_id") == accountId && Column("reblog_of_id") != nil)
            .deleteAll(db) > 0
    }

    /// Records that `postId` mentions `accountId`; a mention already recorded is left as it is.
    public func addMention(post postId: Int64, account accountId: Int64) throws {
        try PostMention(postId: postId, accountId: accountId).insert(db, onConflict: .ignore)
    }

    /// The names of the hashtags of `postId`, as first spelt, sorted (cached statement: asked
    /// for every rendered status and Note).
    public func hashtagNames(of postId: Int64) throws -> [String] {
        try String.fetchAll(db.cachedStatement(sql: """
            SELECT h.name FROM post_hashtags ph JOIN hashtags h ON h.id = ph.hashtag_id WHERE ph.post_id = ? ORDER BY h.name
            """), arguments: [postId])
    }

    /// Replaces the hashtags of `postId` with `names`, creating the hashtags not known yet
    /// (the first spelling seen is kept).
    public func replaceHashtags(_ names: [String], of postId: Int64) throws {
        try db.execute(cached: "DELETE FROM post_hashtags WHERE post_id = ?", arguments: [postId])
        try addHashtags(names, to: postId)
    }

    /// Adds the hashtags `names` to `postId`, creating those not known yet (the first spelling
    /// seen is kept): for a post just stored, which has none to replace. Cached statements,
    /// since every stored post with hashtags runs them on the single writer.
    public func addHashtags(_ names: [String], to postId: Int64) throws {
        for name in names {
            let known = try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM hashtags WHERE name = ?"), arguments: [name])
            let id = try known ?? Hashtag(name: name).inserted(db).id
            try db.execute(cached: "INSERT OR IGNORE INTO post_hashtags(post_id, hashtag_id) VALUES (?, ?)", arguments: [postId, id])
        }
    }

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

    /// Neither on a blocked domain nor by a suspended account.
    private static func notDomainBlocked(_ p: String) -> String {
        """
        NOT EXISTS (SELECT 1 FROM accounts va JOIN domain_blocks vd ON vd.domain = va.domain WHERE va.id = \(p).account_id) \
        AND NOT EXISTS (SELECT 1 FROM account_moderation vs WHERE vs.account_id = \(p).account_id AND vs.suspended_at IS NOT NULL)
        """
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
    /// status_stats count them (the kept counter).
    public func publicReplyCount(of postId: Int64) throws -> Int { try counts(of: postId).replies }

    /// The ids (URIs) of the first `limit` public and unlisted replies to `postId`, oldest first.
    public func publicReplyURIs(of postId: Int64, limit: Int) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT uri FROM posts WHERE in_reply_to_id = ? AND visibility IN ('public','unlisted') ORDER BY id LIMIT ?",
                            arguments: [postId, limit])
    }

    /// How many boosts `postId` has (the kept counter).
    public func boostCount(of postId: Int64) throws -> Int { try counts(of: postId).reblogs }

    /// The counts shown for posts: the kept counters, or the origin's figures for a remote post
    /// when they are larger (the node never shows less than it knows, nor less than the origin
    /// reported when the post was last opened). The columns only: `FROM` with
    /// `shownCountTables` (the ids of a batch may come first) and a `WHERE` on `p.id` follow.
    static let shownCounts = """
        SELECT p.id AS post_id,
          MAX(COALESCE(s.replies_count, 0), COALESCE(o.replies_count, 0)) AS replies_count,
          MAX(COALESCE(s.reblogs_count, 0), COALESCE(o.reblogs_count, 0)) AS reblogs_count,
          MAX(COALESCE(s.favourites_count, 0), COALESCE(o.favourites_count, 0)) AS favourites_count
        """

    /// The tables `shownCounts` reads, after `FROM`.
    static let shownCountTables = "posts p LEFT JOIN post_stats s ON s.post_id = p.id LEFT JOIN post_origin_counts o ON o.post_id = p.id"

    /// The replies, boosts and likes counts of `postId` (zeros when it has none).
    public func counts(of postId: Int64) throws -> PostCounts {
        try PostCounts.fetchOne(db.cachedStatement(sql: Self.shownCounts + " FROM \(Self.shownCountTables) WHERE p.id = ?"), arguments: [postId]) ?? PostCounts()
    }

    /// The counters of each of `ids` that has any (the others have zeros), in one query.
    public func counts(of ids: some Collection<Int64>) throws -> [Int64: PostCounts] {
        let rows = try BatchQuery.records(PostCounts.self, db, ids, sql: Self.shownCounts
            + " FROM \(BatchQuery.idTable) CROSS JOIN \(Self.shownCountTables) WHERE p.id = \(BatchQuery.idValue)")
        return Dictionary(rows.map { ($0.postId, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether `accountId` boosted `postId` (cached statement).
    public func isBoosted(_ postId: Int64, by accountId: Int64) throws -> Bool {
        try APIQuerySupport.cachedCount(db, "SELECT COUNT(*) FROM posts WHERE reblog_of_id = ? AND account_id = ?", postId, accountId) > 0
    }

    /// SQL: the post made at `time` with id `id` (columns) was made since `date`, as a time and,
    /// for the query planner, the same bound on its snowflake id (`Snowflake.lowerBound`): with
    /// the time alone, SQLite reads every public post ever stored through the visibility index.
    /// A post's id is never older than its time (remote posts take the id of their `published`,
    /// local ones of their creation), so the id bound keeps every post the time keeps.
    static func madeSince(_ date: Date, time: String = "p.created_at", id: String = "p.id") -> (sql: String, arguments: StatementArguments) {
        ("\(time) >= ? AND \(id) >= ?", [date, Snowflake.lowerBound(at: date)])
    }

    /// Those of `ids` that `accountId` liked, boosted and bookmarked, in one query.
    public func viewerStates(of accountId: Int64, among ids: some Collection<Int64>) throws -> ViewerStates {
        var states = ViewerStates()
        // `?1` the viewer, `?2` the ids (`BatchQuery.rows` binds the ids last).
        let (ids2, current) = (BatchQuery.idTable(2), BatchQuery.idValue)
        for (kind, id) in try BatchQuery.rows(db, ids, sql: """
            SELECT 0, l.post_id FROM \(ids2) CROSS JOIN likes l WHERE l.account_id = ?1 AND l.post_id = \(current)
            UNION ALL SELECT 1, b.reblog_of_id FROM \(ids2) CROSS JOIN posts b WHERE b.account_id = ?1 AND b.reblog_of_id = \(current)
            UNION ALL SELECT 2, k.post_id FROM \(ids2) CROSS JOIN bookmarks k WHERE k.account_id = ?1 AND k.post_id = \(current)
            """, arguments: [accountId], decode: { ($0[0] as Int, $0[1] as Int64) }) {
            switch kind {
            case 0: states.liked.insert(id)
            case 1: states.boosted.insert(id)
            default: states.bookmarked.insert(id)
            }
        }
        return states
    }

    /// The accounts mentioned in `postId`, by account id (cached statement).
    public func mentionedAccounts(of postId: Int64) throws -> [Account] {
        try Account.fetchAll(db.cachedStatement(sql: """
            SELECT a.* FROM mentions m JOIN accounts a ON a.id = m.account_id WHERE m.post_id = ? ORDER BY m.account_id
            """), arguments: [postId])
    }

    /// What renderings show of the accounts mentioned in each of `ids`, by account id, in one
    /// query; posts without mentions are left out.
    public func mentionedAccounts(ofPosts ids: some Collection<Int64>) throws -> [Int64: [MentionedAccount]] {
        try BatchQuery.grouped(db, ids, sql: """
            SELECT m.post_id, \(MentionedAccount.columns) FROM \(BatchQuery.idTable) CROSS JOIN mentions m JOIN accounts a ON a.id = m.account_id
            WHERE m.post_id = \(BatchQuery.idValue) ORDER BY m.post_id, m.account_id
            """, decode: { MentionedAccount(row: $0, startingAt: 1) })
    }

    /// The hashtag names of each of `ids`, as first spelt and sorted, in one query; posts
    /// without hashtags are left out.
    public func hashtagNames(ofPosts ids: some Collection<Int64>) throws -> [Int64: [String]] {
        try BatchQuery.grouped(db, ids, sql: """
            SELECT ph.post_id, h.name FROM \(BatchQuery.idTable) CROSS JOIN post_hashtags ph JOIN hashtags h ON h.id = ph.hashtag_id
            WHERE ph.post_id = \(BatchQuery.idValue) ORDER BY ph.post_id, h.name
            """, decode: { $0[1] as String })
    }

    /// One page of the accounts that boosted `postId` with a boost `viewer` may see, newest
    /// boost first, each with the boost's id.
    public func boosters(of postId: Int64, viewer: Int64?, page: PageBounds) throws -> [PageItem<Account>] {
        let visible = Self.visibilityCondition("r", viewer: viewer)
        return try APIQuerySupport.postActors(in: "posts", postColumn: "reblog_of_id", postId: postId, filter: visible.sql, arguments: visible.arguments,
                              page: page, db: db)
    }

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
        var sql: String
        var arguments: StatementArguments
        var order = "p.id"
        switch match {
        case .hashtag(let name):
            // Read from the tag's own rows (newest first by its primary key), never by a pass
            // over every post or every post carrying it.
            sql = """
                SELECT p.* FROM post_hashtags ph JOIN posts p ON p.id = ph.post_id
                WHERE ph.hashtag_id = (SELECT h.id FROM hashtags h WHERE h.name = ?) AND \(visible.sql) AND p.reblog_of_id IS NULL
                """
            arguments = [name] + visible.arguments
            order = "ph.post_id"
        case .url(let url):
            // Each address through its own index (`uri`, `url`).
            sql = """
                SELECT p.* FROM posts p WHERE \(visible.sql) AND p.reblog_of_id IS NULL
                  AND p.id IN (SELECT u.id FROM posts u WHERE u.uri = ? UNION ALL SELECT u.id FROM posts u WHERE u.url = ?)
                """
            arguments = visible.arguments + [url, url]
        }
        if let authorId {
            sql += " AND p.account_id = ?"
            arguments += [authorId]
        }
        sql += " ORDER BY \(order) DESC LIMIT ? OFFSET ?"
        arguments += [limit, offset]
        return try Post.fetchAll(db, sql: sql, arguments: arguments)
    }
}

/// Query pieces shared by the client API's queries in this module.
enum APIQuerySupport {
    /// One page of the accounts behind the rows of `table` (aliased `r`) whose `postColumn` is
    /// `postId` and that match `filter`, newest row first, each with the row's id.
    static func postActors(in table: String, postColumn: String, postId: Int64, filter: String, arguments filterArguments: StatementArguments,
                    page: PageBounds, db: SQLSession) throws -> [PageItem<Account>] {
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
    static func cachedCount(_ db: SQLSession, _ sql: String, _ arguments: Int64...) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: sql), arguments: StatementArguments(arguments)) ?? 0
    }
}

/// What a post search matches (`Posts.search`).
public enum PostSearchMatch: Sendable, Equatable {
    /// Posts carrying the hashtag with exactly this name.
    case hashtag(String)
    /// The post whose object id or URL is this.
    case url(String)
}

/// What a viewer did to some posts (`Posts.viewerStates`).
public struct ViewerStates: Sendable, Equatable {
    /// The posts the viewer likes.
    public var liked: Set<Int64> = []
    /// The posts the viewer boosted.
    public var boosted: Set<Int64> = []
    /// The posts the viewer bookmarked.
    public var bookmarked: Set<Int64> = []

    /// None.
    public init() {}
}
