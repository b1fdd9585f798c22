import Core
import Foundation
import Hummingbird
import Storage

/// Sign up, log in and log out by email and password, with the same account service, password
/// checks and failed-login throttling as the client API and the OAuth login form.
struct WebAuthController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("login", use: loginForm)
        router.post("login", use: login)
        router.get("signup", use: signupForm)
        router.post("signup", use: signup)
        router.post("logout", use: logout)
    }

    /// `GET /login`: the sign-in form (`next` is where to go afterwards).
    @Sendable func loginForm(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        if web.me != nil { return WebResponses.redirect("/") }
        return await web.handling { try await showLogin(web, email: "", error: nil, status: .ok) }
    }

    /// `POST /login` (email, password, remember, next, csrf): starts a session (a new token,
    /// the old one revoked), trusts the browser for the account (`DeviceTrust`) and goes to
    /// `next`; a wrong password shows the form again with 401. While the account's failed
    /// sign-ins lock it, 429 with `Retry-After` and the offer of an emailed sign-in link.
    @Sendable func login(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        return await web.handling {
            let params = try await web.form()
            _ = try await node.throttle("authorize", rule: node.configuration.rateLimits.authorize, request: request, context: context)
            let email = params.nonEmpty("email") ?? "", next = params.string("next")
            let attempt = SignInAttempt(email: email, password: params.string("password") ?? "", browser: request, context: context, node: node)
            let signedIn: Account?
            do { signedIn = try await node.signIn(attempt) } catch let locked as RateLimitExceeded {
                return try await showLocked(web, email: email, refusal: locked, next: next)
            }
            guard let account = signedIn else {
                return try await showLogin(web, email: email, error: "That email and password do not match an account here.",
                                           status: .unauthorized, next: next)
            }
            let cookies = try await WebSession.start(for: account, remember: params.bool("remember") == true, replacing: request, node: node)
            let device = try await DeviceTrust(node: node).remember(account, from: request)
            return WebResponses.redirect(LocalRedirect.target(next), cookies: cookies + [device])
        }
    }

    /// `GET /signup`: the sign-up form with the instance rules.
    @Sendable func signupForm(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        if web.me != nil { return WebResponses.redirect("/") }
        return await web.handling { try await showSignup(web, values: [:], errors: [], status: .ok) }
    }

    /// `POST /signup` (username, email, password, agreement, csrf): creates the account with the
    /// API's rules and signs the person in (or asks them to confirm their email first).
    @Sendable func signup(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        return await web.handling {
            let params = try await web.form()
            guard node.configuration.openRegistrations else { throw NodeError.forbidden("Sign-ups are closed on this server.") }
            _ = try await node.throttle("signup", rule: node.configuration.rateLimits.signUp, request: request, context: context)
            let username = params.nonEmpty("username") ?? "", email = params.nonEmpty("email") ?? ""
            let values = ["username": username, "email": email]
            do {
                try SignUpController.check(username: username, email: email, password: params.string("password") ?? "",
                                           agreement: params.bool("agreement") ?? false)
                let account = try await node.accounts.create(username: username, email: email, password: params.string("password") ?? "")
                try await AccountMailService(node: node).beginConfirmation(of: account, email: email)
                if node.configuration.requireEmailConfirmation {
                    return try await web.page("message", title: "Confirm your email", model: [
                        "heading": "Check your email", "text": "We sent a link to \(email). Open it, then log in."])
                }
                let cookies = try await WebSession.start(for: account, remember: false, replacing: request, node: node)
                return WebResponses.redirect("/settings/profile?welcome=1", cookies: cookies)
            } catch let failure as ValidationFailure {
                return try await showSignup(web, values: values, errors: failure.details.map { Self.sentence($0.field, $0.detail.description) },
                                            status: .unprocessableContent)
            } catch NodeError.validation(let message) {
                return try await showSignup(web, values: values, errors: [message], status: .unprocessableContent)
            }
        }
    }

    /// `POST /logout` (csrf): revokes the session's token and clears the cookie.
    @Sendable func logout(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        return await web.handling {
            _ = try await web.form()
            return WebResponses.redirect("/", cookies: [try await WebSession.end(request, node: node)])
        }
    }

    private func showLogin(_ web: WebContext, email: String, error: String?, status: HTTPResponse.Status, next: String? = nil,
                           extra: [String: Any] = [:]) async throws(NodeError) -> Response {
        var model: [String: Any] = ["email": email, "error": error as Any, "next": LocalRedirect.target(next ?? web.request.uri.queryParameters["next"].map(String.init)),
                                    "signupOpen": node.configuration.openRegistrations, "nodeName": node.configuration.nodeName,
                                    "notice": web.request.uri.queryParameters["deleted"] != nil ? "Your account was deleted." : nil as String?]
        model.merge(extra) { $1 }
        return try await web.page("login", title: "Log in", model: model, status: status)
    }

    /// The form again for a locked account (429 with the lock's headers), offering an emailed
    /// sign-in link when the node can send mail.
    private func showLocked(_ web: WebContext, email: String, refusal: RateLimitExceeded, next: String?) async throws(NodeError) -> Response {
        let seconds = refusal.headers[.retryAfter].flatMap(Int.init) ?? 60
        let wait = seconds < 90 ? "a minute" : "\((seconds + 59) / 60) minutes"
        var page = try await showLogin(web, email: email, error: "Too many failed sign-ins for this account. Try again in \(wait)"
                                       + (node.mailer != nil ? ", or have a sign-in link emailed to you." : "."),
                                       status: .tooManyRequests, next: next, extra: ["canMail": node.mailer != nil])
        page.headers.append(contentsOf: refusal.headers)
        return page
    }

    private func showSignup(_ web: WebContext, values: [String: String], errors: [String], status: HTTPResponse.Status) async throws(NodeError) -> Response {
        let rules = (try? await node.database.read { db in try db.moderation.rules().map(\.text) }) ?? []
        let model: [String: Any] = ["username": values["username"] ?? "", "email": values["email"] ?? "", "errors": errors,
                                    "rules": rules, "hasRules": !rules.isEmpty, "open": node.configuration.openRegistrations,
                                    "domain": node.urls.domain, "nodeName": node.configuration.nodeName]
        return try await web.page("signup", title: "Sign up", model: model, status: status)
    }

    /// "Username is reserved" from the field and the API's detail.
    private static func sentence(_ field: String, _ detail: String) -> String {
        let label = field == "agreement" ? "The rules" : field.prefix(1).uppercased() + field.dropFirst()
        return "\(label) \(detail)."
    }
}
