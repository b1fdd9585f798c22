import Foundation
import GRDB

extension Transaction {
    /// Private notes about other accounts.
    public var accountNotes: AccountNotes { AccountNotes(db: session) }
}

/// Private notes about other accounts.
public struct AccountNotes { let db: SQLSession }

extension AccountNotes {
    /// Sets `accountId`'s private note about `targetId`; an empty comment deletes it.
    public func set(account accountId: Int64, target targetId: Int64, comment: String, at date: Date = Date()) throws {
        guard !comment.isEmpty else {
            try db.execute(cached: "DELETE FROM account_notes WHERE account_id = ? AND target_account_id = ?", arguments: [accountId, targetId])
            return
        }
        try db.execute(cached: """
            INSERT INTO account_notes(account_id, target_account_id, comment, updated_at) VALUES (?, ?, ?, ?)
            ON CONFLICT(account_id, target_account_id) DO UPDATE SET comment = excluded.comment, updated_at = excluded.updated_at
            """, arguments: [accountId, targetId, comment, date])
    }

    /// `accountId`'s private note about `targetId`, if any.
    public func comment(account accountId: Int64, target targetId: Int64) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT comment FROM account_notes WHERE account_id = ? AND target_account_id = ?"),
                            arguments: [accountId, targetId])
    }
}
