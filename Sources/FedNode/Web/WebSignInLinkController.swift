import Core
import Foundation
import Hummingbird
import Storage

/// Signing in by an emailed one-time link, offered by the login page while an account's failed
/// sign-ins lock it: `POST /login/link` asks for one, `GET /login/link?sign_in_token=` shows a
/// button (mail scanners that open links must not use them up), `POST /login/link/use` signs
/// in, once, and trusts the browser (`DeviceTrust`). Without an SMTP server the request
/// answers 503.
struct WebSignInLinkController {
    let node: Node
    private var mail: AccountMailService { AccountMailService(node: node) }

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.post("login/link", use: request)
        router.get("login/link", use: show)
        router.post("login/link/use", use: use)
    }

    /// `POST /login/link` (email, csrf): mails a sign-in link when the address is an account's;
    /// the page is the same either way. Throttled per address (`RateLimits.signInLink`) and
    /// per email (`RateLimits.signInLinkPerAccount`, silently).
    @Sendable func request(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        return await web.handling {
            let params = try await web.form()
            _ = try await node.throttle("sign-in-link", rule: node.configuration.rateLimits.signInLink, request: request, context: context)
            guard let email = params.nonEmpty("email"), email.count <= 320 else { throw NodeError.validation("Enter your email address.") }
            try await mail.requestSignInLink(email: email)
            return try await web.page("message", title: "Check your email", model: [
                "heading": "Check your email",
                "text": "If an account on this server uses that address, a sign-in link is on its way. It works once, for 15 minutes."])
        }
    }

    /// `GET /login/link?sign_in_token=`: the button that uses the link (400 page for an
    /// unknown, used or expired one).
    @Sendable func show(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        return await web.handling {
            let secret = request.uri.queryParameters["sign_in_token"].map(String.init) ?? ""
            guard Self.plausible(secret), let account = try await mail.signInLinkAccount(secret: secret) else { throw Self.expired }
            return try await web.page("sign_in_link", title: "Sign in", model: [
                "username": account.username, "token": secret, "nodeName": node.configuration.nodeName])
        }
    }

    /// `POST /login/link/use` (sign_in_token, csrf): uses the link up, starts a session and
    /// trusts the browser for the account; the account's failed sign-ins stay counted (the
    /// guessing may go on), so other browsers stay locked out.
    @Sendable func use(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        return await web.handling {
            let params = try await web.form()
            let secret = params.string("sign_in_token") ?? ""
            guard Self.plausible(secret) else { throw Self.expired }
            let account: Account
            do { account = try await mail.redeemSignInLink(secret: secret) } catch let error as NodeError where error.status == .notFound { throw Self.expired }
            try await RegistrationService(node: node).refusePending(account)
            let cookies = try await WebSession.start(for: account, remember: false, replacing: request, node: node)
            let device = try await DeviceTrust(node: node).remember(account, from: request)
            return WebResponses.redirect("/", cookies: cookies + [device])
        }
    }

    private static func plausible(_ secret: String) -> Bool { !secret.isEmpty && secret.count <= 100 }

    private static var expired: NodeError { .badRequest("This sign-in link is invalid, used or expired. Ask for a new one on the login page.") }
}
