import Core
import Foundation
import Hummingbird
import Signatures
import Storage

/// A signed-in browser. A web session is an OAuth token like any app's (same store, same
/// checks, revocable the same way); the browser holds the raw token in an `HttpOnly` cookie.
struct WebSession: Sendable {
    /// The session cookie's name.
    static let cookieName = "fednode_session"
    /// The scopes a web session carries: everything a person does in the web app.
    static let scopes = "read write follow"
    /// How long a session lasts without "remember me".
    static let shortLife: TimeInterval = 24 * 3600
    /// How long a remembered session lasts.
    static let longLife: TimeInterval = 30 * 24 * 3600

    /// The signed-in account.
    let account: Account
    /// The token's row.
    let token: OAuthToken

    /// The session of `request`, if it carries a valid, unexpired, unrevoked session cookie
    /// whose token has the web scopes; `nil` otherwise (an expired cookie is simply ignored).
    static func current(_ request: Request, node: Node) async -> WebSession? {
        guard let raw = WebCookies.value(WebSession.cookieName, in: request) else { return nil }
        guard let caller = try? await node.apiAuth.caller(token: raw), let account = caller.account,
            caller.scopes.allows("write:statuses")
        else { return nil }
        return WebSession(account: account, token: caller.token)
    }

    /// Starts a session for `account`, revoking the one `request` had (session rotation).
    /// - Returns: The `Set-Cookie` values: the new session and a new CSRF token.
    static func start(for account: Account, remember: Bool, replacing request: Request, node: Node) async throws -> [String] {
        let raw = TokenSecret.new()
        let life = remember ? longLife : shortLife
        let row = OAuthToken(appId: nil, accountId: account.id, tokenHash: TokenSecret.hash(raw), refreshTokenHash: nil,
                             scopes: scopes, expiresAt: Date().addingTimeInterval(life))
        let old = WebCookies.value(cookieName, in: request).map(TokenSecret.hash)
        try await node.database.write { db in
            try revoke(hash: old, in: db)
            try db.oauth.insert(row)
            try db.accounts.recordSignIn(of: account.id, at: Date())
        }
        let secure = node.urls.base.hasPrefix("https:")
        return [WebCookies.make(cookieName, raw, maxAge: remember ? Int(life) : nil, secure: secure),
                WebCookies.make(CSRF.cookieName, TokenSecret.new(), maxAge: nil, secure: secure)]
    }

    /// Ends the session of `request` (its token is revoked).
    /// - Returns: The `Set-Cookie` value that clears the cookie.
    static func end(_ request: Request, node: Node) async throws -> String {
        let hash = WebCookies.value(cookieName, in: request).map(TokenSecret.hash)
        try await node.database.write { db in try revoke(hash: hash, in: db) }
        return WebCookies.make(cookieName, "", maxAge: 0, secure: node.urls.base.hasPrefix("https:"))
    }

    private static func revoke(hash: String?, in db: Transaction) throws {
        guard let hash, var token = try db.oauth.token(forHash: hash), token.revokedAt == nil else { return }
        token.revokedAt = Date()
        try db.oauth.update(token)
    }
}

/// Reading and writing cookies (RFC 6265).
enum WebCookies {
    /// The value of cookie `name` sent with `request`.
    static func value(_ name: String, in request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name else { continue }
                let value = parts[1].trimmingCharacters(in: .whitespaces)
                return value.isEmpty ? nil : value
            }
        }
        return nil
    }

    /// A `Set-Cookie` value: `HttpOnly`, `SameSite=Lax`, for the whole site, `Secure` when asked;
    /// a session cookie without `maxAge`.
    static func make(_ name: String, _ value: String, maxAge: Int?, secure: Bool) -> String {
        var cookie = "\(name)=\(value); Path=/; HttpOnly; SameSite=Lax"
        if let maxAge { cookie += "; Max-Age=\(maxAge)" }
        if secure { cookie += "; Secure" }
        return cookie
    }
}

/// Cross-site request forgery protection by double submission: every page carries a random
/// token in a cookie and the same token in each form; a POST whose two copies differ (another
/// site can make a browser post, but can neither read nor set this origin's cookie) is refused.
enum CSRF {
    /// The cookie's name.
    static let cookieName = "fednode_csrf"
    /// The form field's name.
    static let fieldName = "csrf"

    /// The token of `request`, and the `Set-Cookie` value to send when it had none yet.
    static func token(for request: Request, node: Node) -> (token: String, setCookie: String?) {
        if let existing = WebCookies.value(cookieName, in: request) { return (existing, nil) }
        let fresh = TokenSecret.new()
        return (fresh, WebCookies.make(cookieName, fresh, maxAge: nil, secure: node.urls.base.hasPrefix("https:")))
    }

    /// Whether the form `params` of `request` carries the request's token.
    static func isValid(_ params: APIParams, request: Request) -> Bool {
        guard let cookie = WebCookies.value(cookieName, in: request), let field = params.string(fieldName) else { return false }
        return constantTimeEqual(Array(cookie.utf8), Array(field.utf8))
    }

    private static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
