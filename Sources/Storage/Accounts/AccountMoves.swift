import Foundation
import GRDB

extension Transaction {
    /// Account aliases (`alsoKnownAs`) and moves (`movedTo`).
    public var accountMoves: AccountMoves { AccountMoves(db: session) }
}

/// Account aliases (`alsoKnownAs`) and moves (`movedTo`).
public struct AccountMoves { let db: SQLSession }

extension AccountMoves {
    /// The actor ids `accountId` says it also is, oldest first.
    public func aliases(of accountId: Int64) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT uri FROM account_aliases WHERE account_id = ? ORDER BY created_at, uri", arguments: [accountId])
    }

    /// Replaces `accountId`'s aliases with `uris` (an empty list clears them).
    public func setAliases(_ uris: [String], of accountId: Int64, at date: Date = Date()) throws {
        try db.execute(cached: "DELETE FROM account_aliases WHERE account_id = ?", arguments: [accountId])
        for uri in uris {
            try db.execute(cached: "INSERT OR IGNORE INTO account_aliases(account_id, uri, created_at) VALUES (?, ?, ?)",
                           arguments: [accountId, uri, date])
        }
    }

    /// Adds one alias to `accountId`'s. - Returns: Whether it was new.
    @discardableResult
    public func addAlias(_ uri: String, of accountId: Int64, at date: Date = Date()) throws -> Bool {
        try db.execute(cached: "INSERT OR IGNORE INTO account_aliases(account_id, uri, created_at) VALUES (?, ?, ?)",
                       arguments: [accountId, uri, date])
        return db.changesCount > 0
    }

    /// The id of the account `accountId` moved to, if it moved.
    public func target(of accountId: Int64) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT target_account_id FROM account_moves WHERE account_id = ?", arguments: [accountId])
    }

    /// Records that `accountId` moved to `targetId` (a later move replaces an earlier one).
    public func recordMove(of accountId: Int64, to targetId: Int64, at date: Date = Date()) throws {
        try db.execute(cached: """
            INSERT INTO account_moves(account_id, target_account_id, moved_at) VALUES (?, ?, ?)
            ON CONFLICT(account_id) DO UPDATE SET target_account_id = excluded.target_account_id, moved_at = excluded.moved_at
            """, arguments: [accountId, targetId, date])
    }

    /// The local accounts that follow `accountId` (accepted or pending), with their follows.
    public func localFollows(of accountId: Int64) throws -> [Follow] {
        try Follow.fetchAll(db, sql: """
            SELECT f.* FROM follows f JOIN accounts a ON a.id = f.account_id WHERE f.target_account_id = ? AND a.domain IS NULL
            """, arguments: [accountId])
    }
}
