import GRDB

// Likes (favourites): the table `likes`.

extension Transaction {
    /// Likes (favourites).
    public var likes: Likes { Likes(db: session) }
}

/// Likes (favourites).
public struct Likes { let db: SQLSession }

extension Likes {
    /// Stores a like; a like already recorded (same pair or same activity id) is left as it is.
    public func add(_ like: Like) throws { try like.insert(db, onConflict: .ignore) }

    /// The like of `postId` by `accountId`.
    public func find(account accountId: Int64, post postId: Int64) throws -> Like? {
        try Like.filter(Column("account_id") == accountId).filter(Column("post_id") == postId).fetchOne(db)
    }

    /// The like made by `accountId` whose activity id is `uri`.
    public func find(account accountId: Int64, uri: String) throws -> Like? {
        try Like.filter(Column("account_id") == accountId).filter(Column("uri") == uri).fetchOne(db)
    }

    /// Removes a like.
    public func delete(_ like: Like) throws { try like.delete(db) }

    /// Whether `account` likes `post` (cached statement: asked for every rendered status).
    public func exists(account: Int64, post: Int64) throws -> Bool {
        try APIQuerySupport.cachedCount(db, "SELECT COUNT(*) FROM likes WHERE post_id = ? AND account_id = ?", post, account) > 0
    }

    /// How many likes `postId` has (the kept counter).
    public func count(on postId: Int64) throws -> Int { try Posts(db: db).counts(of: postId).favourites }

    /// The actor ids of the newest `limit` likers of `postId`, newest like first.
    public func likerURIs(of postId: Int64, limit: Int) throws -> [String] {
        try String.fetchAll(
            db, sql: "SELECT a.uri FROM likes l JOIN accounts a ON a.id = l.account_id WHERE l.post_id = ? ORDER BY l.id DESC LIMIT ?",
            arguments: [postId, limit])
    }

    /// One page of the accounts that liked `postId`, newest like first, each with the like's
    /// id; with a `viewer`, accounts in a block relation with the viewer are left out.
    public func likers(of postId: Int64, viewer: Int64?, page: PageBounds) throws -> [PageItem<Account>] {
        var filter = "1"
        var arguments: StatementArguments = []
        if let viewer {
            filter = "NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.account_id = ? AND b.target_account_id = a.id) OR (b.account_id = a.id AND b.target_account_id = ?))"
            arguments += [viewer, viewer]
        }
        return try APIQuerySupport.postActors(in: "likes", postColumn: "post_id", postId: postId, filter: filter, arguments: arguments,
                                              page: page, db: db)
    }

    /// One page of the posts `accountId` liked and may still see, newest like first, each
    /// with the like's id.
    public func likedPosts(by accountId: Int64, page: PageBounds) throws -> [PageItem<Post>] {
        let (range, rangeArguments) = page.condition("l.id")
        let (visible, visibleArguments) = Posts.visibilityCondition("p", viewer: accountId)
        let rows = try Row.fetchAll(db, sql: """
            SELECT l.id AS like_id, p.* FROM likes l JOIN posts p ON p.id = l.post_id
            WHERE l.account_id = ? AND \(range) AND \(visible) ORDER BY \(page.order("l.id")) LIMIT ?
            """, arguments: [accountId] + StatementArguments(rangeArguments) + visibleArguments + [page.limit])
        return try page.newestFirst(rows).map { PageItem(cursor: $0["like_id"], item: try Post(row: $0)) }
    }
}
