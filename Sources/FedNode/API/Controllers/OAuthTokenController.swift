import Core
import Foundation
import Hummingbird
import Storage

/// The token endpoint (RFC 6749 3.2), revocation (RFC 7009) and the server metadata
/// (RFC 8414) that tells clients where they are.
struct OAuthTokenController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.post("oauth/token", use: token)
        router.post("oauth/revoke", use: revoke)
        router.get(".well-known/oauth-authorization-server", use: metadata)
        router.get("oauth/userinfo", use: userInfo)
        router.post("oauth/userinfo", use: userInfo)
    }

    /// `GET|POST /oauth/userinfo` (`profile`, or `read:accounts`): who the token acts for, as
    /// OpenID Connect's UserInfo (Mastodon 4.4): `iss`, `sub` (the actor id), `name`,
    /// `preferred_username`, `profile` and `picture`.
    @Sendable func userInfo(_ request: Request, context: NodeRequestContext) async throws -> Response {
        guard let caller = try await node.apiAuth.caller(of: request) else { throw NodeError.unauthorized("The access token is invalid") }
        if !caller.scopes.allows("profile") { try caller.require("read:accounts") }
        let account = try caller.user()
        let avatar = account.avatarUrl.flatMap { node.urls.mediaURL($0) } ?? node.urls.base + "/static/avatar.png"
        return APIResponse.json(OAuthUserInfo(iss: node.urls.base + "/", sub: account.uri, name: account.displayName.isEmpty ? account.username : account.displayName,
                                              preferredUsername: account.username, profile: account.url ?? account.uri, picture: avatar),
                                headers: [.cacheControl: "no-store"])
    }

    /// `POST /oauth/token` (grant_type authorization_code, password, client_credentials or
    /// refresh_token; the client by client_id/client_secret or HTTP Basic; form, JSON or
    /// multipart): a `Token`. Errors are RFC 6749 5.2 `{"error", "error_description"}`.
    /// Throttled per address.
    @Sendable func token(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let limits = try await node.throttle("token", rule: node.configuration.rateLimits.token, request: request, context: context)
        do {
            let params = try await APIParams.read(request)
            let token = try await grant(params, request: request, context: context)
            // RFC 6749 5.1: token responses are never cached.
            var headers = limits
            headers[.cacheControl] = "no-store"
            headers[.init("Pragma")!] = "no-cache"
            return APIResponse.json(token, headers: headers)
        } catch let error as OAuthError {
            var response = error.response()
            response.headers.append(contentsOf: limits)
            return response
        }
    }

    /// Runs the grant `params` name for the authenticated client.
    private func grant(_ params: APIParams, request: Request, context: NodeRequestContext) async throws -> APIToken {
        guard let type = params.nonEmpty("grant_type") else { throw OAuthError.invalidRequest() }
        let grants = OAuthGrants(node: node)
        switch type {
        case "authorization_code":
            guard let code = params.nonEmpty("code") else { throw OAuthError.invalidRequest() }
            let app = try await OAuthClients(node: node).authenticate(request, params: params)
            let registered = RedirectURIs.registered(app)
            let redirectURI = params.nonEmpty("redirect_uri") ?? (registered.count == 1 ? registered[0] : nil)
            return try await grants.exchange(code: code, app: app, redirectURI: redirectURI, verifier: params.nonEmpty("code_verifier"))
        case "password":
            guard let email = params.nonEmpty("username"), let password = params.string("password") else { throw OAuthError.invalidRequest() }
            let app = try await OAuthClients(node: node).authenticate(request, params: params)
            // An app, not a browser: no device cookie, so a locked account answers 429 here.
            let address = ClientAddress.of(request, context: context, trusting: node.configuration.trustedProxies)
            let attempt = SignInAttempt(email: email, password: password, address: address, deviceToken: nil)
            return try await grants.password(attempt, scopes: try Self.scopes(params, app: app), app: app)
        case "client_credentials":
            let app = try await OAuthClients(node: node).authenticate(request, params: params)
            return try await grants.clientCredentials(app: app, scopes: try Self.scopes(params, app: app))
        case "refresh_token":
            guard let refresh = params.nonEmpty("refresh_token") else { throw OAuthError.invalidRequest() }
            let app = try await OAuthClients(node: node).authenticate(request, params: params)
            let requested = try params.nonEmpty("scope").map { _ in try Self.scopes(params, app: app) }
            return try await grants.refresh(refresh, app: app, scopes: requested)
        default:
            throw OAuthError.unsupportedGrantType
        }
    }

    /// The requested scopes (`read` when none), which must be known and within the app's.
    /// - Throws: `OAuthError.invalidScope`.
    static func scopes(_ params: APIParams, app: OAuthApp) throws(OAuthError) -> Scopes {
        let scopes = Scopes(params.nonEmpty("scope"))
        guard scopes.unknown.isEmpty, scopes.isSubset(of: Scopes(app.scopes)) else { throw .invalidScope }
        return scopes
    }

    /// `POST /oauth/revoke` (token, client_id, client_secret): the token (access or refresh)
    /// stops working; `{}` also for unknown tokens (RFC 7009 2.2). 401 for a bad client, 403
    /// for another app's token.
    @Sendable func revoke(_ request: Request, context: NodeRequestContext) async throws -> Response {
        do {
            let params = try await APIParams.read(request)
            let app = try await OAuthClients(node: node).authenticate(request, params: params)
            guard let token = params.nonEmpty("token") else { throw OAuthError.invalidRequest() }
            try await OAuthGrants(node: node).revoke(token, app: app)
            return APIResponse.empty()
        } catch let error as OAuthError {
            return error.response()
        }
    }

    /// `GET /.well-known/oauth-authorization-server`: RFC 8414 metadata, as Mastodon 4.3 serves it.
    @Sendable func metadata(_ request: Request, context: NodeRequestContext) async throws -> Response {
        APIResponse.json(OAuthServerMetadata(base: node.urls.base), headers: [.accessControlAllowOrigin: "*"])
    }
}

/// OpenID Connect's UserInfo response, as Mastodon 4.4 answers `/oauth/userinfo`.
struct OAuthUserInfo: Codable, Sendable {
    var iss: String
    var sub: String
    var name: String
    var preferredUsername: String
    var profile: String
    var picture: String
}

/// RFC 8414 2 authorization server metadata.
struct OAuthServerMetadata: Codable, Sendable {
    var issuer: String
    var serviceDocumentation = "https://docs.joinmastodon.org/"
    var authorizationEndpoint: String
    var tokenEndpoint: String
    var appRegistrationEndpoint: String
    var revocationEndpoint: String
    var userinfoEndpoint: String
    var scopesSupported = Scopes.known.sorted()
    var responseTypesSupported = ["code"]
    var responseModesSupported = ["query"]
    var grantTypesSupported = ["authorization_code", "password", "client_credentials", "refresh_token"]
    var tokenEndpointAuthMethodsSupported = ["client_secret_basic", "client_secret_post"]
    var codeChallengeMethodsSupported = ["S256"]

    /// The metadata of the node at `base`.
    init(base: String) {
        issuer = base + "/"
        authorizationEndpoint = base + "/oauth/authorize"
        tokenEndpoint = base + "/oauth/token"
        appRegistrationEndpoint = base + "/api/v1/apps"
        revocationEndpoint = base + "/oauth/revoke"
        userinfoEndpoint = base + "/oauth/userinfo"
    }
}
