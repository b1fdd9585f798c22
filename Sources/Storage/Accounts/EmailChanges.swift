import Foundation
import GRDB

extension Transaction {
    /// Email changes waiting for the new address's confirmation.
    public var emailChanges: EmailChanges { EmailChanges(db: session) }
}

/// Email changes waiting for the new address's confirmation (the address an unexpired
/// confirmation link was sent to).
public struct EmailChanges { let db: SQLSession }

extension EmailChanges {
    /// The address `accountId`'s newest unexpired confirmation link was sent to, when it differs
    /// from the sign-in address (an email change waiting for confirmation).
    public func pending(of accountId: Int64, now: Date = Date()) throws -> String? {
        try String.fetchOne(db, sql: """
            SELECT t.email FROM account_tokens t JOIN credentials c ON c.account_id = t.account_id
            WHERE t.account_id = ? AND t.purpose = 'confirm_email' AND t.expires_at > ? AND lower(t.email) <> lower(c.email)
            """, arguments: [accountId, now])
    }
}
