import GRDB

// Blocks: the tables `blocks` (between accounts) and `account_domain_blocks` (domains one
// person hides, AccountDomainBlocks).

extension Transaction {
    /// Blocks between accounts.
    public var blocks: Blocks { Blocks(db: session) }
}

/// Blocks between accounts.
public struct Blocks { let db: SQLSession }

extension Blocks {
    /// Stores a block; a block already recorded (same pair or same activity id) is left as it is.
    public func add(_ block: Block) throws { try block.insert(db, onConflict: .ignore) }

    /// Whether `a` blocks `b` or `b` blocks `a`.
    public func exists(between a: Int64, and b: Int64) throws -> Bool {
        // Raw SQL, prepared once per connection: asked for every relationship a page shows.
        try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM blocks WHERE account_id = ? AND target_account_id = ?)
              OR EXISTS (SELECT 1 FROM blocks WHERE account_id = ? AND target_account_id = ?)
            """, arguments: [a, b, b, a]) ?? false
    }

    /// Whether `blockerId` blocks `blockedId` (one direction).
    public func exists(blocker blockerId: Int64, blocked blockedId: Int64) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM blocks WHERE account_id = ? AND target_account_id = ?)",
                          arguments: [blockerId, blockedId]) ?? false
    }

    /// Removes the block of `targetId` by `blockerId`.
    /// - Returns: Whether a block was deleted.
    public func delete(blocker blockerId: Int64, target targetId: Int64) throws -> Bool {
        try Block.filter(Column("account_id") == blockerId).filter(Column("target_account_id") == targetId).deleteAll(db) > 0
    }

    /// Removes the block made by `blockerId` whose activity id is `uri`.
    /// - Returns: Whether a block was deleted.
    public func delete(blocker blockerId: Int64, uri: String) throws -> Bool {
        try Block.filter(Column("account_id") == blockerId).filter(Column("uri") == uri).deleteAll(db) > 0
    }

    /// One page of the accounts `accountId` blocks, newest block first, each with the
    /// block's id.
    public func blockedAccounts(by accountId: Int64, page: PageBounds) throws -> [PageItem<Account>] {
        try APIQuerySupport.relatedAccounts("""
            FROM blocks r JOIN accounts a ON a.id = r.target_account_id WHERE r.account_id = ?
            """, arguments: [accountId], page: page, db: db)
    }

    /// `blocker`'s block of `target`, if any.
    public func find(blocker: Int64, target: Int64) throws -> Block? {
        try Block.fetchOne(db, sql: "SELECT * FROM blocks WHERE account_id = ? AND target_account_id = ?", arguments: [blocker, target])
    }

    /// Removes a block.
    /// - Returns: Whether a row was deleted.
    @discardableResult
    public func delete(_ block: Block) throws -> Bool { try block.delete(db) }
}
