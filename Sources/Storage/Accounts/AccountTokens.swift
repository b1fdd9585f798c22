import Foundation
import GRDB

/// What an emailed secret lets its holder do.
public enum AccountTokenPurpose: String, Sendable {
    /// Choose a new password.
    case resetPassword = "reset_password"
    /// Confirm the address the link was sent to.
    case confirmEmail = "confirm_email"
    /// Sign in once without the password (an account whose sign-ins are locked).
    case signIn = "sign_in"
}

/// A stored emailed secret (only its hash is kept).
public struct AccountToken: Sendable, Equatable {
    /// The account it acts for.
    public var accountId: Int64
    /// What it allows.
    public var purpose: AccountTokenPurpose
    /// The address the link was sent to.
    public var email: String
    /// When it stops working.
    public var expiresAt: Date
}

/// Single-use secrets sent by email (password reset, email confirmation, sign-in), and the accounts
/// still waiting to confirm their address.
public struct AccountTokens { let db: SQLSession }

extension Transaction {
    /// Emailed secrets and unconfirmed accounts.
    public var accountTokens: AccountTokens { AccountTokens(db: session) }
}

extension AccountTokens {
    /// Stores a secret for `accountId`, replacing earlier ones of the same purpose (only the
    /// newest link works).
    public func issue(hash: String, account accountId: Int64, purpose: AccountTokenPurpose, email: String, expiresAt: Date) throws {
        try db.execute(cached: "DELETE FROM account_tokens WHERE account_id = ? AND purpose = ?", arguments: [accountId, purpose.rawValue])
        try db.execute(cached: "INSERT INTO account_tokens(token_hash, account_id, purpose, email, expires_at) VALUES (?, ?, ?, ?, ?)",
                       arguments: [hash, accountId, purpose.rawValue, email, expiresAt])
    }

    /// Takes the secret with this hash and purpose: removes it and returns it when it had not
    /// expired at `now` (an expired one is removed too and gives `nil`).
    public func redeem(hash: String, purpose: AccountTokenPurpose, now: Date) throws -> AccountToken? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM account_tokens WHERE token_hash = ? AND purpose = ?",
                                         arguments: [hash, purpose.rawValue]) else { return nil }
        try db.execute(cached: "DELETE FROM account_tokens WHERE token_hash = ?", arguments: [hash])
        let token = AccountToken(accountId: row["account_id"], purpose: purpose, email: row["email"], expiresAt: row["expires_at"])
        return token.expiresAt > now ? token : nil
    }

    /// The unexpired secret with this hash and purpose, left in place (to show a form first).
    public func peek(hash: String, purpose: AccountTokenPurpose, now: Date) throws -> AccountToken? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM account_tokens WHERE token_hash = ? AND purpose = ? AND expires_at > ?",
                                         arguments: [hash, purpose.rawValue, now]) else { return nil }
        return AccountToken(accountId: row["account_id"], purpose: purpose, email: row["email"], expiresAt: row["expires_at"])
    }

    /// Marks `accountId` as waiting for its email confirmation.
    public func markUnconfirmed(_ accountId: Int64, since: Date) throws {
        try db.execute(cached: "INSERT OR IGNORE INTO unconfirmed_accounts(account_id, since) VALUES (?, ?)", arguments: [accountId, since])
    }

    /// Marks `accountId`'s email as confirmed.
    public func markConfirmed(_ accountId: Int64) throws {
        try db.execute(cached: "DELETE FROM unconfirmed_accounts WHERE account_id = ?", arguments: [accountId])
    }

    /// Whether `accountId` still has to confirm its email (cached statement: asked per API call
    /// when confirmation is required).
    public func isUnconfirmed(_ accountId: Int64) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT \(Self.unconfirmed("?"))"), arguments: [accountId]) ?? false
    }

    /// SQL: the account whose id is `account` (a column or `?`) has not confirmed its email.
    static func unconfirmed(_ account: String) -> String {
        "EXISTS (SELECT 1 FROM unconfirmed_accounts WHERE account_id = \(account))"
    }

    /// Sets a new password hash for `accountId`.
    public func setPasswordHash(_ hash: String, of accountId: Int64) throws {
        try db.execute(cached: "UPDATE credentials SET password_hash = ? WHERE account_id = ?", arguments: [hash, accountId])
    }

    /// Changes the sign-in email of `accountId`.
    public func setEmail(_ email: String, of accountId: Int64) throws {
        try db.execute(cached: "UPDATE credentials SET email = ? WHERE account_id = ?", arguments: [email, accountId])
    }

    /// Revokes every OAuth token of `accountId` (all apps and sessions sign in again).
    /// - Returns: How many were revoked.
    @discardableResult
    public func revokeAllSessions(of accountId: Int64, at date: Date) throws -> Int {
        try db.execute(cached: "UPDATE oauth_tokens SET revoked_at = ? WHERE account_id = ? AND revoked_at IS NULL", arguments: [date, accountId])
        return db.changesCount
    }
}
