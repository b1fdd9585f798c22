import Foundation
import GRDB

// Timelines: the table `home_timeline` (HomeTimeline, HomeTimelineEntry; followed hashtags'
// fan-out in FollowedTags+HomeTimeline) and `markers` (Markers), and the public, hashtag,
// profile and list timelines, read from the posts tables.

extension Transaction {
    /// Home, public, tag and profile timelines.
    public var timelines: Timelines { Timelines(db: session) }
}

/// Home, public, tag and profile timelines.
public struct Timelines { let db: SQLSession }

extension Timelines {
    /// Adds `postId` to the home timeline of every local accepted follower of `authorId` (and of
    /// the author, with `includeAuthor`), skipping readers in a block relation with the author.
    public func fanOut(post postId: Int64, author authorId: Int64, includeAuthor: Bool) throws {
        try HomeTimeline.fanOut(postId: postId, authorId: authorId, includeAuthor: includeAuthor, in: db)
    }

    /// Adds `postId` by `authorId` to the home timelines of the given local readers only
    /// (direct posts).
    public func add(post postId: Int64, author authorId: Int64, readers: [Int64]) throws {
        try HomeTimeline.add(postId: postId, authorId: authorId, readers: readers, in: db)
    }

    /// How many of an account's known posts a new follower's home timeline receives at once.
    public static let backfillLimit = 40

    /// Merges `authorId`'s newest known posts and boosts (at most `limit`) into `readerId`'s home
    /// timeline, as fan-out would have had `readerId` followed all along: when a follow becomes
    /// accepted, in the transaction that accepts it. Posts the reader may not see (blocks either
    /// way, direct posts not addressed to the reader) are left out.
    public func backfill(author authorId: Int64, into readerId: Int64, limit: Int = backfillLimit) throws {
        try HomeTimeline.backfill(readerId: readerId, authorId: authorId, limit: limit, in: db)
    }

    /// Removes everything `authorId` posted or boosted from `readerId`'s home timeline
    /// (unfollow, block, rejected follow).
    public func remove(author authorId: Int64, from readerId: Int64) throws {
        try HomeTimeline.remove(authorId: authorId, from: readerId, in: db)
    }

    /// One page of `reader`'s home timeline (fan-out rows), newest first, keeping the posts
    /// (and, for boosts, the boosted posts) the reader may still see and does not mute, without
    /// the posts of members of the reader's exclusive lists.
    public func home(of reader: Int64, page: PageBounds) throws -> [Post] {
        try visiblePage(from: "home_timeline h JOIN posts p ON p.id = h.post_id", where: "h.account_id = ? AND \(Lists.notExclusiveMember)",
                        arguments: [reader], pageColumn: "h.post_id", viewer: reader, page: page, muteMentions: true)
    }

    /// One page of the public timeline, newest first: public posts (no boosts, no comments on
    /// others' posts) that `viewer` (`nil`: anonymous) may see.
    /// - Parameters:
    ///   - local: `true` for this node's posts only, `false` for other nodes' only, `nil` for all.
    ///   - onlyMedia: Only posts with photos.
    public func publicPosts(local: Bool?, onlyMedia: Bool, viewer: Int64?, page: PageBounds) throws -> [Post] {
        var filters = [
            "p.visibility = 'public'", "p.reblog_of_id IS NULL",
            // Mastodon keeps replies off public timelines, except an author's own thread.
            "((p.in_reply_to_id IS NULL AND p.in_reply_to_uri IS NULL) OR p.in_reply_to_account_id = p.account_id)",
        ]
        filters += Self.originFilters(local: local, onlyMedia: onlyMedia)
        let (unsilenced, arguments) = Self.notSilenced("p", viewer: viewer)
        filters.append(unsilenced)
        return try visiblePage(from: "posts p", where: filters.joined(separator: " AND "), arguments: arguments, pageColumn: "p.id",
                               viewer: viewer, page: page)
    }

    /// One page of the hashtag timeline of `name` (any case), newest first, with the filters
    /// of `publicPosts`.
    ///
    /// The page is read from the tag's own rows, newest first by their primary key: its cost
    /// follows the tag's posts, and a tag nobody used costs one index search (a pass over
    /// every post, checking each for the tag, took as long as the whole table).
    public func tagged(_ name: String, local: Bool?, onlyMedia: Bool, viewer: Int64?, page: PageBounds) throws -> [Post] {
        var filters = [
            "ph.hashtag_id = (SELECT t.id FROM hashtags t WHERE t.name = ? COLLATE NOCASE)",
            "p.visibility = 'public'", "p.reblog_of_id IS NULL",
        ]
        filters += Self.originFilters(local: local, onlyMedia: onlyMedia)
        let (unsilenced, arguments) = Self.notSilenced("p", viewer: viewer)
        filters.append(unsilenced)
        return try visiblePage(from: "post_hashtags ph JOIN posts p ON p.id = ph.post_id", where: filters.joined(separator: " AND "),
                               arguments: [name] + arguments, pageColumn: "ph.post_id", viewer: viewer, page: page)
    }

    /// One page of the direct posts `viewer` wrote or is mentioned in, newest first (what
    /// `GET /api/v1/timelines/direct` shows), read from the viewer's mentions and own posts.
    public func direct(of viewer: Int64, page: PageBounds) throws -> [Post] {
        try visiblePage(from: "posts p", where: """
            p.visibility = 'direct' AND p.id IN (SELECT dm.post_id FROM mentions dm WHERE dm.account_id = ?
              UNION SELECT dp.id FROM posts dp WHERE dp.account_id = ? AND dp.visibility = 'direct')
            """, arguments: [viewer, viewer], pageColumn: "p.id", viewer: viewer, page: page)
    }

    /// Public timelines leave out silenced accounts and accounts of silenced domains, except
    /// for a viewer who follows them (Mastodon's "limited").
    static func notSilenced(_ p: String, viewer: Int64?) -> (sql: String, arguments: StatementArguments) {
        let silenced = """
            (EXISTS (SELECT 1 FROM account_moderation sm WHERE sm.account_id = \(p).account_id AND sm.silenced_at IS NOT NULL) \
            OR EXISTS (SELECT 1 FROM accounts sa JOIN instance_domain_blocks sd ON sd.domain = sa.domain AND sd.severity = 'silence' \
            WHERE sa.id = \(p).account_id))
            """
        guard let viewer else { return ("NOT \(silenced)", []) }
        return ("""
            (NOT \(silenced) OR EXISTS (SELECT 1 FROM follows sf WHERE sf.account_id = ? AND sf.target_account_id = \(p).account_id \
            AND sf.state = 'accepted'))
            """, [viewer])
    }

    /// One page of `accountId`'s posts and boosts that `viewer` may see, newest first, over the
    /// index `posts_by_account`.
    /// - Parameters:
    ///   - onlyMedia: Only posts (or boosted posts) with photos.
    ///   - excludeReplies: Leave out replies to others (replies to oneself stay).
    ///   - excludeReblogs: Leave out boosts.
    ///   - tagged: Only posts (or boosted posts) carrying this hashtag.
    public func profile(
        of accountId: Int64, viewer viewerId: Int64?, onlyMedia: Bool, excludeReplies: Bool, excludeReblogs: Bool, tagged: String?,
        page: PageBounds
    ) throws -> [Post] {
        let visible = Posts.visibilityCondition("p", viewer: viewerId)
        let originalVisible = Posts.visibilityCondition("o", viewer: viewerId)
        var sql = """
            SELECT p.* FROM posts p WHERE p.account_id = ? AND \(visible.sql)
              AND (p.reblog_of_id IS NULL OR EXISTS (SELECT 1 FROM posts o WHERE o.id = p.reblog_of_id AND \(originalVisible.sql)))
            """
        var arguments: StatementArguments = [accountId]
        arguments += visible.arguments
        arguments += originalVisible.arguments
        if onlyMedia {
            sql += " AND EXISTS (SELECT 1 FROM media_attachments m WHERE m.post_id = COALESCE(p.reblog_of_id, p.id))"
        }
        if excludeReplies { sql += " AND (p.in_reply_to_id IS NULL OR p.in_reply_to_account_id = p.account_id)" }
        if excludeReblogs { sql += " AND p.reblog_of_id IS NULL" }
        if let tagged {
            sql += """
                 AND EXISTS (SELECT 1 FROM post_hashtags ph JOIN hashtags h ON h.id = ph.hashtag_id
                             WHERE ph.post_id = COALESCE(p.reblog_of_id, p.id) AND h.name = ?)
                """
            arguments += [tagged]
        }
        let (bounds, boundArguments) = page.condition("p.id")
        sql += " AND \(bounds) ORDER BY \(page.order("p.id")) LIMIT ?"
        arguments += StatementArguments(boundArguments)
        arguments += [page.limit]
        return page.newestFirst(try Post.fetchAll(db, sql: sql, arguments: arguments))
    }

    /// `local`, `remote` and `only_media` as SQL conditions on `p`.
    private static func originFilters(local: Bool?, onlyMedia: Bool) -> [String] {
        var filters: [String] = []
        if local == true { filters.append("p.local = 1") } else if local == false { filters.append("p.local = 0") }
        if onlyMedia { filters.append("EXISTS (SELECT 1 FROM media_attachments m WHERE m.post_id = p.id)") }
        return filters
    }

    /// One page of posts `p` from `source` matching `condition`, kept when `viewer` may see
    /// them (and, for boosts, the boosted post), newest first.
    func visiblePage(from source: String, where condition: String, arguments: StatementArguments, pageColumn: String,
                     viewer: Int64?, page: PageBounds, muteMentions: Bool = false) throws -> [Post] {
        let (range, rangeArguments) = page.condition(pageColumn)
        let visible = Posts.visibilityCondition("p", viewer: viewer)
        let original = Posts.originalVisibilityCondition("p", viewer: viewer)
        // Accounts the viewer mutes vanish from every timeline (and, at home, posts mentioning them).
        let notMuted: (sql: String, arguments: StatementArguments) =
            viewer.map { Mutes.notMutedCondition("p", viewer: $0, now: Date(), mentions: muteMentions) } ?? ("1", [])
        // So do the accounts of domains the viewer hides (and boosts of their posts).
        let notHidden: (sql: String, arguments: StatementArguments) =
            viewer.map { AccountDomainBlocks.notHiddenCondition("p", viewer: $0) } ?? ("1", [])
        // Every value is an argument, so the text takes one of a few shapes per timeline (which
        // page bounds, whether there is a viewer): cached, it is prepared once per connection.
        return page.newestFirst(try Post.fetchAll(db.cachedStatement(sql: """
            SELECT p.* FROM \(source) WHERE \(condition) AND \(range) AND \(visible.sql) AND \(original.sql) AND \(notMuted.sql)
              AND \(notHidden.sql)
            ORDER BY \(page.order(pageColumn)) LIMIT ?
            """), arguments: arguments + StatementArguments(rangeArguments) + visible.arguments + original.arguments + notMuted.arguments
                + notHidden.arguments + [page.limit]))
    }

    /// The local accounts whose home timeline holds `postId`.
    public func homeReaders(of postId: Int64) throws -> [Int64] {
        try Int64.fetchAll(db, sql: "SELECT account_id FROM home_timeline WHERE post_id = ?", arguments: [postId])
    }

    /// Every post id in `readerId`'s home timeline, in no particular order (to draw cursors).
    public func homePostIds(of readerId: Int64) throws -> [Int64] {
        try Int64.fetchAll(db, sql: "SELECT post_id FROM home_timeline WHERE account_id = ?", arguments: [readerId])
    }

    /// SQLite's plan for one page of a home timeline, one line per step: shows the page is one
    /// index range scan.
    public func homePagePlan(of readerId: Int64, limit: Int) throws -> [String] {
        try Row.fetchAll(db, sql: """
            EXPLAIN QUERY PLAN SELECT p.* FROM home_timeline h JOIN posts p ON p.id = h.post_id
            WHERE h.account_id = ? AND h.post_id < ? AND h.post_id > ? ORDER BY h.post_id DESC LIMIT ?
            """, arguments: [readerId, Int64.max, 0, limit]).map { $0["detail"] as String }
    }

    /// The statement `timeRawHomeScans` times, for reports.
    public static let rawHomeScanSQL = "SELECT post_id FROM home_timeline WHERE account_id = ? AND post_id < ? ORDER BY post_id DESC LIMIT ?"

    /// Times `limit` post ids below each cursor read from the home-timeline index alone, with a
    /// prepared statement: the floor for a page. Each cursor is read twice; `clock` returns a
    /// monotonic time in nanoseconds.
    /// - Returns: The durations of the second pass, one per cursor.
    public func timeRawHomeScans(of readerId: Int64, cursors: [Int64?], limit: Int, clock: () -> UInt64) throws -> [UInt64] {
        let statement = try db.cachedStatement(sql: Self.rawHomeScanSQL)
        var samples: [UInt64] = []
        for cursor in cursors + cursors {
            let start = clock()
            _ = try Int64.fetchAll(statement, arguments: [readerId, cursor ?? Int64.max, limit])
            samples.append(clock() - start)
        }
        return Array(samples.suffix(cursors.count))
    }

    /// One page of `readerId`'s home-timeline rows, newest first, without the visibility
    /// filter of `home(of:page:)`: the index range scan alone (benchmarks and tests).
    public func homeRows(of readerId: Int64, maxId: Int64? = nil, sinceId: Int64? = nil, minId: Int64? = nil, limit: Int = 20) throws -> [Post] {
        try HomeTimeline.page(readerId: readerId, maxId: maxId, sinceId: sinceId, minId: minId, limit: limit, in: db)
    }
}
