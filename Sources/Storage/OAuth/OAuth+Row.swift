import Foundation
import GRDB

extension OAuthToken {
    /// Decodes an `oauth_tokens` row by column name, without `Codable` and its key strategy:
    /// every request with a bearer token reads one. As `Codable`
    /// decoding does, an optional column missing from the row reads as `nil` and a missing
    /// required one throws.
    /// - Throws: `RowDecodingError` when a required column is missing or holds a wrong value.
    public init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        appId = try row.decode(forColumn: "app_id")
        accountId = try row.decode(forColumn: "account_id")
        tokenHash = try row.decode(forColumn: "token_hash")
        refreshTokenHash = try row.decode(forColumn: "refresh_token_hash")
        scopes = try row.decode(forColumn: "scopes")
        createdAt = try row.decode(forColumn: "created_at")
        expiresAt = try row.decode(forColumn: "expires_at")
        revokedAt = try row.decode(forColumn: "revoked_at")
        lastUsedAt = try row.decode(forColumn: "last_used_at")
    }
}

extension OAuthApp {
    /// Decodes an `oauth_apps` row by column name, without `Codable` (read with each bearer
    /// token), with the same rules as `OAuthToken.init(row:)`.
    /// - Throws: `RowDecodingError` when a required column is missing or holds a wrong value.
    public init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        name = try row.decode(forColumn: "name")
        website = try row.decode(forColumn: "website")
        redirectUris = try row.decode(forColumn: "redirect_uris")
        scopes = try row.decode(forColumn: "scopes")
        clientId = try row.decode(forColumn: "client_id")
        clientSecret = try row.decode(forColumn: "client_secret")
        createdAt = try row.decode(forColumn: "created_at")
    }
}
