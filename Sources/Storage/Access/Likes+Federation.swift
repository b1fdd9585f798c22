import GRDB

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
}
