import GRDB

// Pinned (featured) posts: the tables `pins` and `featured_collections`.

extension Transaction {
    /// Pinned (featured) posts.
    public var pins: Pins { Pins(db: session) }
}

/// Pinned (featured) posts.
public struct Pins { let db: SQLSession }

extension Pins {
    /// Pins `postId` on `accountId`'s profile; an existing pin is left as it is.
    /// - Returns: Whether a pin was added.
    @discardableResult
    public func add(account accountId: Int64, post postId: Int64) throws -> Bool {
        try Pin(accountId: accountId, postId: postId).insert(db, onConflict: .ignore)
        return db.changesCount > 0
    }

    /// Unpins `postId` from `accountId`'s profile.
    /// - Returns: Whether a pin was deleted.
    @discardableResult
    public func remove(account accountId: Int64, post postId: Int64) throws -> Bool {
        try Pin.filter(Column("account_id") == accountId && Column("post_id") == postId).deleteAll(db) > 0
    }

    /// Whether `accountId` pinned `postId`.
    public func exists(account accountId: Int64, post postId: Int64) throws -> Bool {
        try Pin.filter(Column("account_id") == accountId && Column("post_id") == postId).fetchCount(db) > 0
    }

    /// How many posts `accountId` has pinned.
    public func count(of accountId: Int64) throws -> Int {
        try Pin.filter(Column("account_id") == accountId).fetchCount(db)
    }

    /// Those of `ids` their authors pinned, in one query.
    public func pinned(among ids: some Collection<Int64>) throws -> Set<Int64> {
        try BatchQuery.idSet(db, ids, sql: """
            SELECT n.post_id FROM \(BatchQuery.idTable) CROSS JOIN pins n JOIN posts p ON p.id = n.post_id AND p.account_id = n.account_id
            WHERE n.post_id = \(BatchQuery.idValue)
            """)
    }

    /// `accountId`'s pinned posts that `viewerId` (`nil`: anonymous) may see, newest pin first.
    public func pinnedPosts(of accountId: Int64, viewer viewerId: Int64?, limit: Int) throws -> [Post] {
        let (visible, arguments) = Posts.visibilityCondition("p", viewer: viewerId)
        return try Post.fetchAll(db, sql: """
            SELECT p.* FROM pins n JOIN posts p ON p.id = n.post_id
            WHERE n.account_id = ? AND p.account_id = n.account_id AND p.reblog_of_id IS NULL AND \(visible)
            ORDER BY n.id DESC LIMIT ?
            """, arguments: [accountId] + arguments + [limit])
    }

    /// `accountId`'s pinned public and unlisted posts, newest pin first: its `featured`
    /// collection.
    public func featuredPosts(of accountId: Int64, limit: Int) throws -> [Post] {
        try Post.fetchAll(db, sql: """
            SELECT p.* FROM pins n JOIN posts p ON p.id = n.post_id
            WHERE n.account_id = ? AND p.account_id = n.account_id AND p.reblog_of_id IS NULL
              AND p.visibility IN ('public', 'unlisted')
            ORDER BY n.id DESC LIMIT ?
            """, arguments: [accountId, limit])
    }

    /// The `featured` collection URL stored for the remote account `accountId`.
    public func featuredCollection(of accountId: Int64) throws -> String? {
        try FeaturedCollection.fetchOne(db, key: accountId)?.url
    }

    /// Stores `url` as the remote account `accountId`'s `featured` collection.
    public func setFeaturedCollection(_ url: String, of accountId: Int64) throws {
        try FeaturedCollection(accountId: accountId, url: url).save(db)
    }
}
