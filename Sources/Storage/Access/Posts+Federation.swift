import GRDB

extension Posts {
    /// Whether a post (or boost) with object id `uri` is stored.
    public func exists(uri: String) throws -> Bool {
        try Post.filter(Column("uri") == uri).fetchCount(db) > 0
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
        try db.execute(sql: "DELETE FROM post_hashtags WHERE post_id = ?", arguments: [postId])
        for name in names {
            let tag = try Hashtag.filter(Column("name") == name).fetchOne(db) ?? Hashtag(name: name).inserted(db)
            try PostHashtag(postId: postId, hashtagId: tag.id).insert(db, onConflict: .ignore)
        }
    }
}
