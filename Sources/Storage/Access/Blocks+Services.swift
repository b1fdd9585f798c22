import GRDB

extension Blocks {
    /// `blocker`'s block of `target`, if any.
    public func find(blocker: Int64, target: Int64) throws -> Block? {
        try Block.filter(Column("account_id") == blocker && Column("target_account_id") == target).fetchOne(db)
    }

    /// Stores a new block.
    public func insert(_ block: Block) throws { try block.insert(db) }

    /// Removes a block.
    /// - Returns: Whether a row was deleted.
    @discardableResult
    public func delete(_ block: Block) throws -> Bool { try block.delete(db) }
}
