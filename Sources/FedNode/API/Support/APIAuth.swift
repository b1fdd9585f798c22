import Core
import Foundation
import Hummingbird
import Signatures
import Storage

/// Who is calling the client API: the token, its scopes, its app and the account it acts for.
public struct APICaller: Sendable {
    /// The bearer token's row.
    public var token: OAuthToken
    /// The scopes granted to the token.
    public var scopes: Scopes
    /// The account the token acts for; `nil` for a client-credentials (app) token.
    public var account: Account?
    /// The app the token was issued to.
    public var app: OAuthApp?

    /// The account, for endpoints that need a person rather than an app.
    /// - Throws: `NodeError.validation` (422), as Mastodon answers app-only tokens.
    public func user() throws(NodeError) -> Account {
        guard let account else { throw .validation("This method requires an authenticated user") }
        return account
    }

    /// Checks that the token was granted `scope`.
    /// - Throws: `NodeError.forbidden` (403) otherwise.
    public func require(_ scope: String) throws(NodeError) {
        guard scopes.allows(scope) else { throw .forbidden("This action is outside the authorized scopes") }
    }
}

/// Bearer-token authentication for the client API. Tokens are random 32-byte strings; only
/// their SHA-256 is stored, so a leaked database does not leak sessions.
public struct APIAuth: Sendable {
    let node: Node

    /// The caller of `request`, if it presented a valid token (header or `access_token` query,
    /// which streaming clients use); `nil` when it presented none.
    /// - Throws: `NodeError.unauthorized` (401) for an unknown, revoked or expired token.
    public func caller(of request: Request) async throws(NodeError) -> APICaller? {
        guard let token = Self.bearerToken(of: request) else { return nil }
        return try await caller(token: token)
    }

    /// The caller of `request`, required, with `scope` required too.
    /// - Throws: 401 without a valid token, 403 without the scope, 422 for an app-only token.
    public func user(of request: Request, scope: String) async throws(NodeError) -> (APICaller, Account) {
        guard let caller = try await caller(of: request) else { throw .unauthorized("The access token is invalid") }
        try caller.require(scope)
        return (caller, try caller.user())
    }

    /// The viewer of a public endpoint: the account behind a valid token, or `nil` (anonymous).
    /// - Throws: 401 for a token that is present but invalid, as Mastodon does.
    public func viewer(of request: Request) async throws(NodeError) -> Account? {
        try await caller(of: request)?.account
    }

    /// The caller presenting the raw bearer `token`.
    /// - Parameter allowUnconfirmed: Whether an account still waiting for its email
    ///   confirmation may call (only for asking another confirmation link).
    /// - Throws: 401 for an unknown, revoked or expired token; 403 for an account still pending
    ///   approval, locked out, or that must confirm its email first (when the node requires
    ///   confirmation), as Mastodon answers.
    public func caller(token: String, allowUnconfirmed: Bool = false) async throws(NodeError) -> APICaller {
        let hash = TokenSecret.hash(token)
        let checkConfirmation = node.configuration.requireEmailConfirmation && !allowUnconfirmed
        do {
            let found = try await node.database.read { db -> APICaller? in
                guard let bearer = try db.oauth.bearer(forHash: hash),
                    bearer.token.revokedAt == nil, bearer.token.expiresAt.map({ $0 > Date() }) ?? true
                else { return nil }
                let row = bearer.token
                let account = try row.accountId.flatMap { try db.accounts.find(id: $0) }
                if row.accountId != nil, account == nil { return nil }
                if account != nil, bearer.pending {
                    throw NodeError.forbidden(RegistrationService.pendingMessage)
                }
                if account != nil, bearer.lockedOut {
                    throw NodeError.forbidden("Your login is currently disabled")
                }
                if checkConfirmation, account != nil, bearer.unconfirmed {
                    throw NodeError.forbidden("Your login is missing a confirmed e-mail address")
                }
                let app = try row.appId.flatMap { try db.oauth.app(id: $0) }
                return APICaller(token: row, scopes: Scopes(row.scopes), account: account, app: app)
            }
            guard let found else { throw NodeError.unauthorized("The access token is invalid") }
            return found
        } catch let error as NodeError { throw error } catch { throw .internal("token lookup: \(error)") }
    }

    /// The token in `Authorization: Bearer ...`, or the `access_token` query parameter.
    public static func bearerToken(of request: Request) -> String? {
        if let header = request.headers[.authorization] {
            let parts = header.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer" {
                let token = parts[1].trimmingCharacters(in: .whitespaces)
                return token.isEmpty ? nil : token
            }
        }
        return request.uri.queryParameters["access_token"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Issues a token for `accountId` (or an app token when `nil`) and stores its hash.
    /// - Returns: The raw token, the raw refresh token and the stored row.
    public func issueToken(appId: Int64?, accountId: Int64?, scopes: Scopes, in db: Transaction) throws -> (token: String, refresh: String, row: OAuthToken) {
        let token = TokenSecret.new()
        let refresh = TokenSecret.new()
        let row = OAuthToken(appId: appId, accountId: accountId, tokenHash: TokenSecret.hash(token),
                             refreshTokenHash: TokenSecret.hash(refresh), scopes: scopes.description)
        try db.oauth.insert(row)
        return (token, refresh, row)
    }
}

extension Node {
    /// Client API authentication.
    public var apiAuth: APIAuth { APIAuth(node: self) }
}
