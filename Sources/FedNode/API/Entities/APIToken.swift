import Core

/// An issued access token (`Token`), as `POST /oauth/token` and sign-up answer.
public struct APIToken: Codable, Sendable, Equatable {
    /// The bearer token.
    public var accessToken: String
    /// Always `Bearer`.
    public var tokenType: String
    /// Granted scopes, space-separated.
    public var scope: String
    /// Issue time, Unix seconds.
    public var createdAt: Int
    /// Refresh token (single use: refreshing rotates both).
    public var refreshToken: String?

    /// Creates the entity.
    public init(accessToken: String, scope: String, createdAt: Int, refreshToken: String?) {
        self.accessToken = accessToken
        self.tokenType = "Bearer"
        self.scope = scope
        self.createdAt = createdAt
        self.refreshToken = refreshToken
    }
}
