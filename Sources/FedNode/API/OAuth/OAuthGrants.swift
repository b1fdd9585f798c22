import Core
import Foundation
import Storage

/// Codes and tokens for the OAuth grants Mastodon clients use: authorization code with PKCE
/// (RFC 6749 4.1, RFC 7636), password (4.3), client credentials (4.4) and refresh (6), plus
/// revocation (RFC 7009). Only hashes of codes and tokens are stored.
struct OAuthGrants {
    let node: Node

    /// How long an authorization code may be redeemed (RFC 6749 4.1.2 recommends at most 10 minutes).
    static let codeLifetime: TimeInterval = 10 * 60

    /// Issues a code for `request`, authorized by `account`, and records the sign-in.
    /// - Returns: The raw code, to be sent to the app once.
    func issueCode(for request: AuthorizationRequest, account: Account) async throws -> String {
        let code = TokenSecret.new()
        let now = Date()
        let row = OAuthCode(codeHash: TokenSecret.hash(code), appId: request.app.id, accountId: account.id, redirectUri: request.redirectURI,
                            scopes: request.scopes.description, codeChallenge: request.codeChallenge,
                            codeChallengeMethod: request.codeChallengeMethod, expiresAt: now.addingTimeInterval(Self.codeLifetime))
        try await write("issuing code") { db in
            try db.oauth.deleteCodes(expiredBefore: now)
            try db.oauth.insert(row)
            try Self.recordSignIn(of: account.id, at: now, in: db)
        }
        return code
    }

    /// Redeems `code` once (RFC 6749 4.1.3): it must be `app`'s, unexpired, asked for with the
    /// same redirect URI, and answer its PKCE challenge. Any attempt uses the code up, so an
    /// intercepted code cannot be tried twice.
    /// - Throws: `OAuthError.invalidGrant` otherwise.
    func exchange(code: String, app: OAuthApp, redirectURI: String?, verifier: String?) async throws -> APIToken {
        let issued = try await write("redeeming code") { db -> (token: String, refresh: String, row: OAuthToken)? in
            guard let row = try db.oauth.code(forHash: TokenSecret.hash(code)) else { return nil }
            try db.oauth.delete(row)
            guard row.appId == app.id, row.expiresAt > Date(), redirectURI == row.redirectUri else { return nil }
            if let challenge = row.codeChallenge {
                guard let verifier, PKCE.verify(verifier, challenge: challenge, method: row.codeChallengeMethod ?? "plain") else { return nil }
            }
            return try node.apiAuth.issueToken(appId: app.id, accountId: row.accountId, scopes: Scopes(row.scopes), in: db)
        }
        guard let issued else { throw OAuthError.invalidGrant }
        return Self.entity(issued)
    }

    /// The password grant: the email and password of a local account.
    /// - Throws: `OAuthError.invalidGrant` for wrong credentials, `RateLimitExceeded` while the
    ///   account's failed sign-ins lock it.
    func password(_ attempt: SignInAttempt, scopes: Scopes, app: OAuthApp) async throws -> APIToken {
        guard let account = try await node.signIn(attempt) else { throw OAuthError.invalidGrant }
        let issued = try await write("issuing token") { db in
            try Self.recordSignIn(of: account.id, at: Date(), in: db)
            return try node.apiAuth.issueToken(appId: app.id, accountId: account.id, scopes: scopes, in: db)
        }
        return Self.entity(issued)
    }

    /// The client-credentials grant: a token for the app alone (sign-up, public data).
    func clientCredentials(app: OAuthApp, scopes: Scopes) async throws -> APIToken {
        let issued = try await write("issuing token") { db in
            try node.apiAuth.issueToken(appId: app.id, accountId: nil, scopes: scopes, in: db)
        }
        // RFC 6749 4.4.3: no refresh token for client credentials.
        var token = Self.entity(issued)
        token.refreshToken = nil
        return token
    }

    /// Rotates a refresh token (RFC 6749 6): the old access and refresh tokens stop working and
    /// a new pair with the same or fewer scopes is issued.
    /// - Throws: `OAuthError.invalidGrant` for an unknown, revoked or foreign refresh token,
    ///   `.invalidScope` for scopes beyond the original ones.
    func refresh(_ refreshToken: String, app: OAuthApp, scopes requested: Scopes?) async throws -> APIToken {
        let issued = try await write("refreshing token") { db -> (token: String, refresh: String, row: OAuthToken)? in
            guard var old = try db.oauth.token(forRefreshHash: TokenSecret.hash(refreshToken)),
                old.revokedAt == nil, old.appId == app.id
            else { return nil }
            let scopes = requested ?? Scopes(old.scopes)
            guard scopes.isSubset(of: Scopes(old.scopes)) else { throw OAuthError.invalidScope }
            old.revokedAt = Date()
            try db.oauth.update(old)
            return try node.apiAuth.issueToken(appId: app.id, accountId: old.accountId, scopes: scopes, in: db)
        }
        guard let issued else { throw OAuthError.invalidGrant }
        return Self.entity(issued)
    }

    /// Revokes an access or refresh token of `app` (RFC 7009 2.1); an unknown token is not an
    /// error (2.2), so nothing is revealed about which tokens exist.
    /// - Throws: `OAuthError.unauthorizedClient` (403) for another app's token.
    func revoke(_ token: String, app: OAuthApp) async throws {
        let hash = TokenSecret.hash(token)
        try await write("revoking token") { db in
            guard var row = try db.oauth.token(forEitherHash: hash) else { return }
            guard row.appId == app.id else { throw OAuthError.unauthorizedClient }
            if row.revokedAt == nil {
                row.revokedAt = Date()
                try db.oauth.update(row)
            }
        }
    }

    /// The `Token` entity of a freshly issued token.
    static func entity(_ issued: (token: String, refresh: String, row: OAuthToken)) -> APIToken {
        APIToken(accessToken: issued.token, scope: issued.row.scopes, createdAt: Int(issued.row.createdAt.timeIntervalSince1970),
                 refreshToken: issued.refresh)
    }

    /// Notes a sign-in (NodeInfo counts accounts active by it).
    static func recordSignIn(of accountId: Int64, at date: Date, in db: Transaction) throws {
        try db.accounts.recordSignIn(of: accountId, at: date)
    }

    /// Runs `body` in one write transaction; OAuth errors pass through, database errors become
    /// `NodeError.internal`.
    private func write<T: Sendable>(_ action: String, _ body: @Sendable @escaping (Transaction) throws -> T) async throws -> T {
        do { return try await node.database.write(body) } catch let error as OAuthError { throw error } catch {
            throw NodeError.internal("\(action): \(error)")
        }
    }
}
