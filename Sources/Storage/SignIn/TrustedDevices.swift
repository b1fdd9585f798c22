import Foundation
import GRDB

extension Transaction {
    /// Browsers an account signed in from before (device cookies, stored hashed).
    public var trustedDevices: TrustedDevices { TrustedDevices(db: session) }
}

/// Browsers an account signed in from before (device cookies, stored hashed).
public struct TrustedDevices { let db: SQLSession }

extension TrustedDevices {
    /// Whether the browser whose device token hashes to `hash` signed in to `accountId` at or
    /// after `usedSince` (older ones count as forgotten).
    public func isTrusted(_ hash: String, account accountId: Int64, usedSince: Date) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: """
            SELECT EXISTS (SELECT 1 FROM trusted_devices WHERE token_hash = ? AND account_id = ? AND last_used_at >= ?)
            """), arguments: [hash, accountId, usedSince]) ?? false
    }

    /// Moves the accounts trusted under the token hash `old` to `new` (the browser gets a new
    /// token at each sign-in, so a token someone else learnt or planted stops working).
    public func rotate(from old: String, to new: String) throws {
        try db.execute(cached: "UPDATE trusted_devices SET token_hash = ? WHERE token_hash = ?", arguments: [new, old])
    }

    /// Trusts the browser of token hash `hash` for `accountId` as of `now` (its wrong passwords
    /// forgotten), keeping the account's `keep` most recently used browsers and no others.
    public func trust(_ hash: String, account accountId: Int64, at now: Date, keep: Int) throws {
        try db.execute(cached: """
            INSERT INTO trusted_devices(token_hash, account_id, last_used_at, failures) VALUES (?, ?, ?, 0)
            ON CONFLICT(token_hash, account_id) DO UPDATE SET last_used_at = excluded.last_used_at, failures = 0
            """, arguments: [hash, accountId, now])
        try db.execute(cached: """
            DELETE FROM trusted_devices WHERE account_id = ? AND token_hash NOT IN
              (SELECT token_hash FROM trusted_devices WHERE account_id = ? ORDER BY last_used_at DESC, token_hash LIMIT ?)
            """, arguments: [accountId, accountId, keep])
    }

    /// Counts a wrong password the browser sent for `accountId` past a lock; at `limit` of them
    /// the browser is no longer trusted for the account.
    public func countFailure(_ hash: String, account accountId: Int64, limit: Int) throws {
        try db.execute(cached: "UPDATE trusted_devices SET failures = failures + 1 WHERE token_hash = ? AND account_id = ?",
                       arguments: [hash, accountId])
        try db.execute(cached: "DELETE FROM trusted_devices WHERE token_hash = ? AND account_id = ? AND failures >= ?",
                       arguments: [hash, accountId, limit])
    }

    /// Forgets every browser of `accountId` (its password was reset).
    public func forgetAll(of accountId: Int64) throws {
        try db.execute(cached: "DELETE FROM trusted_devices WHERE account_id = ?", arguments: [accountId])
    }

    /// How many browsers `accountId` is trusted from.
    public func count(of accountId: Int64) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM trusted_devices WHERE account_id = ?"), arguments: [accountId]) ?? 0
    }

    /// Deletes the browsers not used since `cutoff`.
    /// - Returns: How many were deleted.
    @discardableResult
    public func prune(unusedBefore cutoff: Date) throws -> Int {
        try db.execute(sql: "DELETE FROM trusted_devices WHERE last_used_at < ?", arguments: [cutoff])
        return db.changesCount
    }
}
