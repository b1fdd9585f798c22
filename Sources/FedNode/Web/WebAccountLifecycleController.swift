import Core
import Foundation
import Hummingbird
import Storage

/// The account's lifecycle from the settings page: changing the sign-in email (a link to the
/// new address confirms it, `EmailChange`) and deleting the account (`SelfDeletion`), both
/// confirmed with the password, exactly as `POST /api/v1/user/email_change` and
/// `POST /api/v1/accounts/delete` do.
struct WebAccountLifecycleController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.post("settings/email", use: changeEmail)
        router.post("settings/delete", use: delete)
    }

    /// `POST /settings/email` (email, email_password, csrf): sends the confirmation link; the
    /// page then shows the address waiting for confirmation.
    @Sendable func changeEmail(_ request: Request, context: NodeRequestContext) async throws -> Response {
        await confirmedForm(request) { me, params in
            try await EmailChange(node: node).request(for: me, password: params.string("email_password") ?? "",
                                                          newEmail: params.string("email") ?? "")
            return WebResponses.redirect("/settings/account?email=sent")
        }
    }

    /// `POST /settings/delete` (delete_password, csrf): deletes the account and everything it
    /// posted, tells the servers that know it, and signs this browser out.
    @Sendable func delete(_ request: Request, context: NodeRequestContext) async throws -> Response {
        await confirmedForm(request) { me, params in
            try await SelfDeletion(node: node).delete(me, password: params.string("delete_password") ?? "")
            let cleared = try await WebSession.end(request, node: node)
            return WebResponses.redirect("/login?deleted=1", cookies: [cleared])
        }
    }

    /// Runs `action` for the signed-in account with the posted form (CSRF-checked); a failure
    /// the person can fix shows the settings page again, saying what went wrong.
    private func confirmedForm(_ request: Request, _ action: (Account, APIParams) async throws -> Response) async -> Response {
        let web = await WebContext.of(request, node: node)
        guard let me = web.me else { return web.signInFirst() }
        return await web.handling {
            let params = try await web.form()
            do { return try await action(me, params) } catch let error as NodeError where Self.shownOnPage(error) {
                return try await WebAccountSettingsController(node: node).page(web, me: me, error: Self.sentence(error.message), status: error.status)
            }
        }
    }

    /// The failures the person can fix on the same page (a wrong or missing password, an
    /// address that is invalid or taken, mail that cannot be sent now).
    private static func shownOnPage(_ error: NodeError) -> Bool {
        switch error {
        case .forbidden, .badRequest, .validation, .unavailable: true
        default: false
        }
    }

    /// The API's messages made into sentences for people ("password must be provided" →
    /// "Enter your password.").
    private static func sentence(_ message: String) -> String {
        switch message {
        case "Invalid password": "That password is not right."
        case let text where text.hasSuffix("must be provided") || text.hasPrefix("no password"): "Enter your password to confirm."
        default: message.prefix(1).uppercased() + message.dropFirst() + (message.hasSuffix(".") ? "" : ".")
        }
    }
}
