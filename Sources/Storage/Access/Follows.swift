import GRDB

extension Follows {
    /// The follow (accepted or pending) from `follower` to `target`.
    public func find(follower: Int64, target: Int64) throws -> Follow? {
        try Follow.filter(Column("account_id") == follower && Column("target_account_id") == target).fetchOne(db)
    }

    /// The follow whose activity id is `uri`.
    public func find(uri: String) throws -> Follow? { try Follow.filter(Column("uri") == uri).fetchOne(db) }

    /// Stores a new follow.
    public func insert(_ follow: Follow) throws { try follow.insert(db) }

    /// Stores every column of an existing follow.
    public func update(_ follow: Follow) throws { try follow.update(db) }

    /// Removes a follow.
    public func delete(_ follow: Follow) throws { try follow.delete(db) }
}
