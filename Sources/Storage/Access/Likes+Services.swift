import GRDB

extension Likes {
    /// Stores a new like.
    public func insert(_ like: Like) throws { try like.insert(db) }

    // MARK: Also declared, same signature and query, by the +API (exists) and +Federation
    // (find, delete) files of the parallel refactors: keep one copy when merging.

    /// Whether `account` likes `post`.
    public func exists(account: Int64, post: Int64) throws -> Bool {
        try Like.filter(Column("account_id") == account && Column("post_id") == post).fetchCount(db) > 0
    }

    /// The like of `postId` by `accountId`.
    public func find(account accountId: Int64, post postId: Int64) throws -> Like? {
        try Like.filter(Column("account_id") == accountId && Column("post_id") == postId).fetchOne(db)
    }

    /// Removes a like.
    public func delete(_ like: Like) throws { try like.delete(db) }
}
