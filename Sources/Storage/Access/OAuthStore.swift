import Foundation
import GRDB

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
