import GRDB

extension Likes {
    /// Stores a new like.
    public func insert(_ like: Like) throws { try like.insert(db) }
}
