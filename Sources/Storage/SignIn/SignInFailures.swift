import Foundation
import GRDB

// Sign-in protection: the tables `sign_in_failures` (SignInFailures) and `trusted_devices`
// (TrustedDevices).

extension Transaction {
    /// Failed sign-ins per typed email and the lock they earned.
    public var signInFailures: SignInFailures { SignInFailures(db: session) }
}

/// Failed sign-ins per typed email and the lock they earned.
public struct SignInFailures { let db: SQLSession }

extension SignInFailures {
    /// Counts one failed sign-in under `key` from `address` at `now`, in one statement, so
    /// concurrent attempts (of any process) are each counted and see each other's lock. A count
    /// whose last failure is before `forgetBefore` starts again at one, its lock forgotten.
    /// - Parameter unlessLocked: When set, nothing is counted while `key` is locked at `now`.
    /// - Returns: The failures in a row, this one included; `nil` when locked and nothing counted.
    public func count(_ key: String, from address: String, at now: Date, forgetBefore: Date, unlessLocked: Bool) throws -> Int? {
        let sql = """
            INSERT INTO sign_in_failures(key, failures, last_failed_at, last_address) VALUES (?, 1, ?, ?)
            ON CONFLICT(key) DO UPDATE SET
              failures = CASE WHEN sign_in_failures.last_failed_at <= ? THEN 1 ELSE sign_in_failures.failures + 1 END,
              locked_until = CASE WHEN sign_in_failures.last_failed_at <= ? THEN NULL ELSE sign_in_failures.locked_until END,
              last_failed_at = excluded.last_failed_at,
              last_address = excluded.last_address
            """
        let unlocked = """
            WHERE sign_in_failures.locked_until IS NULL OR sign_in_failures.locked_until <= ?
              OR sign_in_failures.last_failed_at <= ?
            """
        var arguments: StatementArguments = [key, now, address, forgetBefore, forgetBefore]
        if unlessLocked { arguments += [now, forgetBefore] }
        return try Int.fetchOne(db, sql: sql + (unlessLocked ? "\n" + unlocked : "") + "\nRETURNING failures", arguments: arguments)
    }

    /// Refuses sign-ins under `key` until `date`.
    public func lock(_ key: String, until date: Date) throws {
        try db.execute(cached: "UPDATE sign_in_failures SET locked_until = ? WHERE key = ?", arguments: [date, key])
    }

    /// The failures counted under `key`, if any.
    public func find(_ key: String) throws -> SignInFailure? {
        try Row.fetchOne(db, sql: "SELECT * FROM sign_in_failures WHERE key = ?", arguments: [key]).map(Self.failure)
    }

    /// Forgets the failures under `key` (a successful sign-in).
    public func clear(_ key: String) throws {
        try db.execute(cached: "DELETE FROM sign_in_failures WHERE key = ?", arguments: [key])
    }

    /// Deletes the counts whose last failure is before `cutoff` and whose lock is over at `now`.
    /// - Returns: How many were deleted.
    @discardableResult
    public func prune(before cutoff: Date, now: Date) throws -> Int {
        try db.execute(sql: "DELETE FROM sign_in_failures WHERE last_failed_at < ? AND (locked_until IS NULL OR locked_until <= ?)",
                       arguments: [cutoff, now])
        return db.changesCount
    }

    private static func failure(_ row: Row) -> SignInFailure {
        SignInFailure(key: row["key"], failures: row["failures"], lastFailedAt: row["last_failed_at"],
                      lastAddress: row["last_address"], lockedUntil: row["locked_until"])
    }
}
