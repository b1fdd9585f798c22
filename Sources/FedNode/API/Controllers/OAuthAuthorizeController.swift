import Core
import Foundation
import HTTPTypes
import Hummingbird
import Storage

/// The authorization endpoint (RFC 6749 3.1, 4.1): a login form where a person signs in with
/// email and password and lets an app act for them. No session is remembered between requests,
/// so every authorization asks for the password (as `force_login` would); only the browser is
/// remembered (the device cookie), so that a locked account still lets it in.
struct OAuthAuthorizeController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("oauth/authorize", use: show)
        router.post("oauth/authorize", use: submit)
    }

    /// `GET /oauth/authorize` (client_id, redirect_uri, response_type=code, scope, state,
    /// code_challenge, code_challenge_method, force_login, lang): the login form. An unknown
    /// client or unregistered redirect URI gets a 400 page; other problems are reported to the
    /// app's redirect URI as RFC 6749 4.1.2.1 says.
    @Sendable func show(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let params = try await APIParams.read(request)
        return try await authorizing(params, request: request) { authorization in
            AuthorizePage.form(authorization, nodeName: node.configuration.nodeName)
        }
    }

    /// `POST /oauth/authorize` (the form: the request's parameters plus email, password and
    /// decision): signs the person in and sends the app a code (302 to its redirect URI with
    /// `code` and `state`, or a page showing the code for out-of-band apps). A wrong password
    /// shows the form again with 401; "Deny" sends `access_denied`. Throttled per address, and per
    /// account after repeated failures (429 with `Retry-After`), except from a browser the
    /// account signed in from before, which a successful sign-in here trusts (`DeviceTrust`).
    @Sendable func submit(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let limits = try await node.throttle("authorize", rule: node.configuration.rateLimits.authorize, request: request, context: context)
        let params = try await APIParams.read(request)
        var response = try await authorizing(params, request: request) { authorization in
            guard params.string("decision") != "deny" else {
                return Self.reject(.accessDenied, redirectURI: authorization.redirectURI, state: authorization.state)
            }
            let email = params.string("email") ?? ""
            let attempt = SignInAttempt(email: email, password: params.string("password") ?? "", browser: request, context: context, node: node)
            let signedIn: Account?
            do { signedIn = try await node.signIn(attempt) } catch let throttled as RateLimitExceeded {
                var page = AuthorizePage.form(authorization, nodeName: node.configuration.nodeName, email: email,
                                              error: Self.lockedMessage(mail: node.mailer != nil), status: .tooManyRequests)
                page.headers.append(contentsOf: throttled.headers)
                return page
            } catch let refused as NodeError where refused.status == .forbidden {
                return AuthorizePage.form(authorization, nodeName: node.configuration.nodeName, email: email,
                                          error: refused.message + ".", status: .forbidden)
            }
            guard let account = signedIn else {
                return AuthorizePage.form(authorization, nodeName: node.configuration.nodeName, email: email,
                                          error: "Invalid email or password.", status: .unauthorized)
            }
            let code = try await OAuthGrants(node: node).issueCode(for: authorization, account: account)
            var answer = authorization.redirectURI == RedirectURIs.outOfBand
                ? AuthorizePage.code(code, app: authorization.app.name, language: authorization.language)
                : Self.redirect(to: RedirectURIs.appending([("code", code), ("state", authorization.state)], to: authorization.redirectURI))
            answer.headers.append(HTTPField(name: .setCookie, value: try await DeviceTrust(node: node).remember(account, from: request)))
            return answer
        }
        // A per-account lock already carries its own X-RateLimit-* headers.
        if response.headers[.rateLimitLimit] == nil { response.headers.append(contentsOf: limits) }
        return response
    }

    /// What a locked account's form says: when to try again, and where else to get in.
    private static func lockedMessage(mail: Bool) -> String {
        "Too many failed sign-ins for this account. Try again later"
            + (mail ? ", or ask for a sign-in link by email on this server's login page: the browser that uses it can then sign in here." : ".")
    }

    /// Checks the request and runs `body` with it, or answers the failure.
    private func authorizing(_ params: APIParams, request: Request, _ body: (AuthorizationRequest) async throws -> Response) async throws -> Response {
        do {
            return try await body(try await AuthorizationRequest.check(params, clients: OAuthClients(node: node)))
        } catch AuthorizationRequest.Failure.invalidClient(let message) {
            let wantsJSON = request.headers[.accept].map { $0.contains("json") && !$0.contains("html") } ?? false
            return wantsJSON ? OAuthError(code: "invalid_client", description: message, status: .badRequest).response() : AuthorizePage.error(message)
        } catch AuthorizationRequest.Failure.rejected(let error, let redirectURI, let state) {
            return Self.reject(error, redirectURI: redirectURI, state: state)
        }
    }

    /// Reports `error` to the app (RFC 6749 4.1.2.1), or shows it for out-of-band apps.
    private static func reject(_ error: OAuthError, redirectURI: String, state: String?) -> Response {
        guard redirectURI != RedirectURIs.outOfBand else { return AuthorizePage.error(error.description) }
        return redirect(to: RedirectURIs.appending(
            [("error", error.code), ("error_description", error.description), ("state", state)], to: redirectURI))
    }

    private static func redirect(to location: String) -> Response {
        Response(status: .found, headers: [.location: location, .cacheControl: "no-store"])
    }
}
