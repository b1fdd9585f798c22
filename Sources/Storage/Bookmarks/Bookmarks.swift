import GRDB

// Bookmarks: the table `bookmarks`.

extension Transaction {
    /// Bookmarked posts.
    public var bookmarks: Bookmarks { Bookmarks(db: session) }
}

/// Bookmarked posts.
public struct Bookmarks { let db: SQLSession }

extension Bookmarks {
    /// Bookmarks `postId` for `accountId`; an existing bookmark is left as it is.
    public func add(account accountId: Int64, post postId: Int64) throws {
        try Bookmark(accountId: accountId, postId: postId).insert(db, onConflict: .ignore)
    }

    /// Removes `accountId`'s bookmark of `postId`.
    /// - Returns: Whether a bookmark was deleted.
    @discardableResult
    public func remove(account accountId: Int64, post postId: Int64) throws -> Bool {
        try Bookmark.filter(Column("account_id") == accountId && Column("post_id") == postId).deleteAll(db) > 0
    }

    /// Whether `accountId` bookmarked `postId`.
    public func exists(account accountId: Int64, post postId: Int64) throws -> Bool {
        try Bookmark.filter(Column("account_id") == accountId && Column("post_id") == postId).fetchCount(db) > 0
    }

    /// One page of the posts `accountId` bookmarked and may still see, newest bookmark first,
    /// each with the bookmark's id.
    public func bookmarkedPosts(by accountId: Int64, page: PageBounds) throws -> [PageItem<Post>] {
        let (range, rangeArguments) = page.condition("b.id")
        let (visible, visibleArguments) = Posts.visibilityCondition("p", viewer: accountId)
        let rows = try Row.fetchAll(db, sql: """
            SELECT b.id AS bookmark_id, p.* FROM bookmarks b JOIN posts p ON p.id = b.post_id
            WHERE b.account_id = ? AND \(range) AND \(visible) ORDER BY \(page.order("b.id")) LIMIT ?
            """, arguments: [accountId] + StatementArguments(rangeArguments) + visibleArguments + [page.limit])
        return try page.newestFirst(rows).map { PageItem(cursor: $0["bookmark_id"], item: try Post(row: $0)) }
    }
}
