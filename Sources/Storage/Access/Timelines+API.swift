import GRDB

/// The bounds of one page of a Mastodon list (`max_id`, `since_id`, `min_id`, `limit`), as
/// the client API reads them; the queries turn them into a range over the column they page by.
public struct PageBounds: Sendable, Equatable {
    /// Items strictly older than this id.
    public var maxId: Int64?
    /// Items strictly newer than this id (newest first).
    public var sinceId: Int64?
    /// Items strictly newer than this id, the ones just above it (oldest of the newer first).
    public var minId: Int64?
    /// Page size.
    public var limit: Int

    /// A page with these bounds.
    public init(maxId: Int64? = nil, sinceId: Int64? = nil, minId: Int64? = nil, limit: Int = 20) {
        self.maxId = maxId
        self.sinceId = sinceId
        self.minId = minId
        self.limit = limit
    }

    /// SQL condition on `column` with its arguments, for a query ordered by `order(column)`.
    func condition(_ column: String) -> (sql: String, arguments: [Int64]) {
        var parts: [String] = []
        var arguments: [Int64] = []
        if let maxId { parts.append("\(column) < ?"); arguments.append(maxId) }
        if let minId { parts.append("\(column) > ?"); arguments.append(minId) } else if let sinceId {
            parts.append("\(column) > ?"); arguments.append(sinceId)
        }
        return (parts.isEmpty ? "1" : parts.joined(separator: " AND "), arguments)
    }

    /// `ORDER BY` for `column`: ascending for `min_id` (the rows just above it), else descending.
    func order(_ column: String) -> String { minId != nil ? "\(column) ASC" : "\(column) DESC" }

    /// Puts rows fetched with `order` back newest first.
    func newestFirst<T>(_ rows: [T]) -> [T] { minId != nil ? rows.reversed() : rows }
}

/// One item of a page ordered by the id of another row (the like, follow or block that lists
/// it), with that id, which the `Link` header of the page is made of.
public struct PageItem<Item: Sendable>: Sendable {
    /// The id the page is ordered and bounded by.
    public var cursor: Int64
    /// The listed item.
    public var item: Item

    /// Pairs an item with its cursor.
    public init(cursor: Int64, item: Item) {
        self.cursor = cursor
        self.item = item
    }
}

extension Timelines {
    /// One page of `reader`'s home timeline (fan-out rows), newest first, keeping the posts
    /// (and, for boosts, the boosted posts) the reader may still see.
    public func home(of reader: Int64, page: PageBounds) throws -> [Post] {
        try visiblePage(from: "home_timeline h JOIN posts p ON p.id = h.post_id", where: "h.account_id = ?", arguments: [reader],
                        pageColumn: "h.post_id", viewer: reader, page: page)
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
        return try visiblePage(from: "posts p", where: filters.joined(separator: " AND "), arguments: [], pageColumn: "p.id",
                               viewer: viewer, page: page)
    }

    /// One page of the hashtag timeline of `name` (any case), newest first, with the filters
    /// of `publicPosts`.
    public func tagged(_ name: String, local: Bool?, onlyMedia: Bool, viewer: Int64?, page: PageBounds) throws -> [Post] {
        var filters = [
            "p.visibility = 'public'", "p.reblog_of_id IS NULL",
            "EXISTS (SELECT 1 FROM post_hashtags ph JOIN hashtags t ON t.id = ph.hashtag_id WHERE ph.post_id = p.id AND t.name = ? COLLATE NOCASE)",
        ]
        filters += Self.originFilters(local: local, onlyMedia: onlyMedia)
        return try visiblePage(from: "posts p", where: filters.joined(separator: " AND "), arguments: [name], pageColumn: "p.id",
                               viewer: viewer, page: page)
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
    private func visiblePage(from source: String, where condition: String, arguments: StatementArguments, pageColumn: String,
                             viewer: Int64?, page: PageBounds) throws -> [Post] {
        let (range, rangeArguments) = page.condition(pageColumn)
        let visible = Posts.visibilityCondition("p", viewer: viewer)
        let original = Posts.originalVisibilityCondition("p", viewer: viewer)
        return page.newestFirst(try Post.fetchAll(db, sql: """
            SELECT p.* FROM \(source) WHERE \(condition) AND \(range) AND \(visible.sql) AND \(original.sql)
            ORDER BY \(page.order(pageColumn)) LIMIT ?
            """, arguments: arguments + StatementArguments(rangeArguments) + visible.arguments + original.arguments + [page.limit]))
    }
}
