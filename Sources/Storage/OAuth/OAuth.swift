import Foundation
import GRDB

/// A client application registered through `POST /api/v1/apps`.
public struct OAuthApp: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "oauth_apps"
    /// Snowflake id.
    public var id: Int64
    /// Application name.
    public var name: String
    /// Application website.
    public var website: String?
    /// Allowed redirect URIs, newline-separated.
    public var redirectUris: String
    /// Space-separated scopes the app may ask for.
    public var scopes: String
    /// Public client id.
    public var clientId: String
    /// Client secret (returned to the app once and on verify, as Mastodon does).
    public var clientSecret: String
    /// Registration time.
    public var createdAt: Date

    /// Creates an app row.
    public init(id: Int64 = Snowflake.next(), name: String, website: String?, redirectUris: String, scopes: String, clientId: String, clientSecret: String, createdAt: Date = Date()) {
        self.id = id
        self.name = name
        self.website = website
        self.redirectUris = redirectUris
        self.scopes = scopes
        self.clientId = clientId
        self.clientSecret = clientSecret
        self.createdAt = createdAt
    }
}

/// A short-lived authorization code from `/oauth/authorize`.
public struct OAuthCode: Record, Equatable {
    /// Table name.
    public static let databaseTableName = "oauth_codes"
    /// SHA-256 of the code.
    public var codeHash: String
    /// The app it was issued to.
    public var appId: Int64
    /// The account that authorised it.
    public var accountId: Int64
    /// The redirect URI it must be redeemed with.
    public var redirectUri: String
    /// Granted scopes.
    public var scopes: String
    /// PKCE challenge.
    public var codeChallenge: String?
    /// PKCE method (S256).
    public var codeChallengeMethod: String?
    /// Expiry.
    public var expiresAt: Date

    /// Creates a code row.
    public init(codeHash: String, appId: Int64, accountId: Int64, redirectUri: String, scopes: String, codeChallenge: String?, codeChallengeMethod: String?, expiresAt: Date) {
        self.codeHash = codeHash
        self.appId = appId
        self.accountId = accountId
        self.redirectUri = redirectUri
        self.scopes = scopes
        self.codeChallenge = codeChallenge
        self.codeChallengeMethod = codeChallengeMethod
        self.expiresAt = expiresAt
    }
}

/// An access token (stored only as its hash).
public struct OAuthToken: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "oauth_tokens"
    /// Snowflake id.
    public var id: Int64
    /// The app it was issued to.
    public var appId: Int64?
    /// The account it acts for; `nil` for client-credentials tokens.
    public var accountId: Int64?
    /// SHA-256 of the bearer token.
    public var tokenHash: String
    /// SHA-256 of the refresh token.
    public var refreshTokenHash: String?
    /// Space-separated granted scopes.
    public var scopes: String
    /// Issue time.
    public var createdAt: Date
    /// Expiry, if any.
    public var expiresAt: Date?
    /// Revocation time (logout).
    public var revokedAt: Date?
    /// Last use.
    public var lastUsedAt: Date?

    /// Creates a token row.
    public init(id: Int64 = Snowflake.next(), appId: Int64?, accountId: Int64?, tokenHash: String, refreshTokenHash: String?, scopes: String, createdAt: Date = Date(), expiresAt: Date? = nil) {
        self.id = id
        self.appId = appId
        self.accountId = accountId
        self.tokenHash = tokenHash
        self.refreshTokenHash = refreshTokenHash
        self.scopes = scopes
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
