import Foundation
import GRDB

// OAuth: the tables `oauth_apps`, `oauth_codes` and `oauth_tokens`.

extension Transaction {
    /// OAuth applications, authorization codes and tokens.
    public var oauth: OAuthStore { OAuthStore(db: session) }
}

/// OAuth applications, authorization codes and tokens.
public struct OAuthStore { let db: SQLSession }

extension OAuthStore {
    /// The app with this id.
    public func app(id: Int64) throws -> OAuthApp? {
        try OAuthApp.fetchOne(db.cachedStatement(sql: "SELECT * FROM oauth_apps WHERE id = ?"), arguments: [id])
    }

    /// The app with this public client id.
    public func app(clientId: String) throws -> OAuthApp? {
        try OAuthApp.filter(Column("client_id") == clientId).fetchOne(db)
    }

    /// Stores a newly registered app.
    public func insert(_ app: OAuthApp) throws { try app.insert(db) }

    /// The authorization code whose hash is `codeHash`.
    public func code(forHash codeHash: String) throws -> OAuthCode? { try OAuthCode.fetchOne(db, key: codeHash) }

    /// Stores a new authorization code.
    public func insert(_ code: OAuthCode) throws { try code.insert(db) }

    /// Removes an authorization code (it is used up).
    public func delete(_ code: OAuthCode) throws { try code.delete(db) }

    /// Removes the codes that expired before `date`.
    public func deleteCodes(expiredBefore date: Date) throws {
        try db.execute(cached: "DELETE FROM oauth_codes WHERE expires_at < ?", arguments: [date])
    }

    /// The token whose bearer secret hashes to `tokenHash`, revoked or expired ones included.
    public func token(forHash tokenHash: String) throws -> OAuthToken? {
        try OAuthToken.fetchOne(db.cachedStatement(sql: "SELECT * FROM oauth_tokens WHERE token_hash = ?"), arguments: [tokenHash])
    }

    /// The token whose bearer secret hashes to `tokenHash`, with what deciding whether its
    /// account may call needs, in one query (asked at every authenticated request).
    public func bearer(forHash tokenHash: String) throws -> BearerToken? {
        let rows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT t.*, \(Registrations.pending("t.account_id")) AS bearer_pending,
              \(Moderation.suspendedOrDisabled("t.account_id")) AS bearer_locked_out,
              \(AccountTokens.unconfirmed("t.account_id")) AS bearer_unconfirmed
            FROM oauth_tokens t WHERE t.token_hash = ?
            """), arguments: [tokenHash])
        guard let row = try rows.next() else { return nil }
        return BearerToken(token: try OAuthToken(row: row), pending: row["bearer_pending"], lockedOut: row["bearer_locked_out"],
                           unconfirmed: row["bearer_unconfirmed"])
    }

    /// The token whose refresh secret hashes to `refreshHash`.
    public func token(forRefreshHash refreshHash: String) throws -> OAuthToken? {
        try OAuthToken.filter(Column("refresh_token_hash") == refreshHash).fetchOne(db)
    }

    /// The token whose bearer or refresh secret hashes to `hash` (revocation accepts either).
    public func token(forEitherHash hash: String) throws -> OAuthToken? {
        try OAuthToken.filter(Column("token_hash") == hash || Column("refresh_token_hash") == hash).fetchOne(db)
    }

    /// Stores a newly issued token.
    public func insert(_ token: OAuthToken) throws { try token.insert(db) }

    /// Stores every column of an existing token (revocation).
    public func update(_ token: OAuthToken) throws { try token.update(db) }
}

/// A bearer token's row and the states of its account that refuse it (`OAuthStore.bearer`);
/// all `false` for an app's token, which has no account.
public struct BearerToken: Sendable {
    /// The token's row.
    public var token: OAuthToken
    /// Its account signed up and waits for approval (`Registrations.isPending`).
    public var pending: Bool
    /// Its account is suspended or disabled.
    public var lockedOut: Bool
    /// Its account has not confirmed its email address yet (`AccountTokens.isUnconfirmed`).
    public var unconfirmed: Bool
}
