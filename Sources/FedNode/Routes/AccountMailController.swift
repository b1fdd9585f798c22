import Core
import Foundation
import Hummingbird
import Storage

/// The web pages behind emailed links: `GET/POST /auth/password` (ask for a reset link),
/// `GET/POST /auth/password/edit` (choose a new password), `GET /auth/confirmation` (confirm
/// an address). Without an SMTP server the forms say the server cannot send email (503).
struct AccountMailController {
    let node: Node
    private var mail: AccountMailService { AccountMailService(node: node) }

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("auth/password/new", use: resetForm)
        router.post("auth/password", use: requestReset)
        router.get("auth/password/edit", use: newPasswordForm)
        router.post("auth/password/edit", use: resetPassword)
        router.get("auth/confirmation", use: confirm)
    }

    /// `GET /auth/password/new`: the form asking for the sign-in email.
    @Sendable func resetForm(_ request: Request, context: NodeRequestContext) async throws -> Response {
        guard node.mailer != nil else { return Self.noMail }
        return AccountMailPages.resetRequest(nodeName: node.configuration.nodeName)
    }

    /// `POST /auth/password` (`email`): mails a reset link when the address is an account's;
    /// the answer is the same either way. Throttled per client like sign-ups.
    @Sendable func requestReset(_ request: Request, context: NodeRequestContext) async throws -> Response {
        guard node.mailer != nil else { return Self.noMail }
        do { _ = try await node.throttle("password-reset", rule: node.configuration.rateLimits.signUp, request: request, context: context) } catch {
            return AccountMailPages.message("Too many requests", "Too many reset requests from your address. Try again later.", status: .tooManyRequests)
        }
        let params = try await APIParams.read(request)
        guard let email = params.nonEmpty("email"), email.count <= 320 else {
            return AccountMailPages.resetRequest(nodeName: node.configuration.nodeName, notice: "Enter your email address.", status: .unprocessableContent)
        }
        if case .failure(let error) = await Self.outcome({ () async throws(NodeError) in try await mail.requestPasswordReset(email: email) }) {
            guard error.status == .serviceUnavailable else { throw error }
            return AccountMailPages.message("Email not sent", error.message, status: .serviceUnavailable)
        }
        return AccountMailPages.message("Check your email", "If an account on this server uses that address, a link to choose a new password is on its way. It works for two hours.")
    }

    /// `GET /auth/password/edit?reset_password_token=`: the new-password form (400 page for an
    /// unknown or expired link).
    @Sendable func newPasswordForm(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let secret = request.uri.queryParameters["reset_password_token"].map(String.init) ?? ""
        guard !secret.isEmpty, secret.count <= 100, let account = try await mail.resetAccount(secret: secret) else { return Self.expired }
        return AccountMailPages.newPassword(secret: secret, username: account.username)
    }

    /// `POST /auth/password/edit` (`reset_password_token`, `password`, `password_confirmation`):
    /// sets the password; 422 with the form again for a weak or mismatched one.
    @Sendable func resetPassword(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let params = try await APIParams.read(request)
        let secret = params.string("reset_password_token") ?? ""
        let password = params.string("password") ?? ""
        guard !secret.isEmpty, secret.count <= 100, let account = try await mail.resetAccount(secret: secret) else { return Self.expired }
        guard password == params.string("password_confirmation") else {
            return AccountMailPages.newPassword(secret: secret, username: account.username, error: "The two passwords differ.", status: .unprocessableContent)
        }
        if case .failure(let error) = await Self.outcome({ () async throws(NodeError) in _ = try await mail.resetPassword(secret: secret, to: password) }) {
            switch error.status {
            case .unprocessableContent:
                return AccountMailPages.newPassword(secret: secret, username: account.username, error: error.message, status: .unprocessableContent)
            case .notFound: return Self.expired
            default: throw error
            }
        }
        return AccountMailPages.message("Password changed", "Your password is changed. Sign in again in your apps with the new one.")
    }

    /// `GET /auth/confirmation?confirmation_token=`: confirms the address the link was sent to.
    @Sendable func confirm(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let secret = request.uri.queryParameters["confirmation_token"].map(String.init) ?? ""
        guard !secret.isEmpty, secret.count <= 100 else { return Self.expired }
        if case .failure(let error) = await Self.outcome({ () async throws(NodeError) in _ = try await mail.confirm(secret: secret) }) {
            switch error.status {
            case .notFound: return Self.expired
            case .unprocessableContent: return AccountMailPages.message("Address not confirmed", error.message, status: .unprocessableContent)
            default: throw error
            }
        }
        return AccountMailPages.message("Email confirmed", "Your email address is confirmed. You can now sign in and use your account.")
    }

    /// How `body` ended, as a value (the pages answer some failures themselves).
    private static func outcome(_ body: () async throws(NodeError) -> Void) async -> Result<Void, NodeError> {
        do { try await body() } catch { return .failure(error) }
        return .success(())
    }

    private static var noMail: Response {
        AccountMailPages.message("Email is not available", "This server cannot send email: its admin has not configured an SMTP server. Ask them to reset your password.",
                                 status: .serviceUnavailable)
    }

    private static var expired: Response {
        AccountMailPages.message("Link expired", "This link is invalid or has expired. Ask for a new one.", status: .badRequest)
    }
}
