import Core
import Foundation
import Hummingbird
import Storage

/// `POST /api/v1/emails/confirmations`: another confirmation link for an account that has not
/// confirmed its email yet (Mastodon's endpoint, with its answers).
struct EmailsController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.post("api/v1/emails/confirmations", use: resend)
    }

    /// Sends a new link to the account's address, or to `email` when given (which then becomes
    /// the sign-in address once confirmed). Needs a user token; 403 once the address is
    /// confirmed, 503 when the node cannot send email, 422 for an invalid or taken `email`.
    @Sendable func resend(_ request: Request, context: NodeRequestContext) async throws -> Response {
        _ = try await node.throttle("confirmation", rule: node.configuration.rateLimits.signUp, request: request, context: context)
        guard let token = APIAuth.bearerToken(of: request) else { throw NodeError.unauthorized("The access token is invalid") }
        let account = try await node.apiAuth.caller(token: token, allowUnconfirmed: true).user()
        let mail = AccountMailService(node: node)
        guard try await mail.isUnconfirmed(account) else {
            throw NodeError.forbidden("This method is only available while the e-mail is awaiting confirmation")
        }
        let params = try await APIParams.read(request)
        var address = try await AccountAccess(node: node).read { db in try db.accounts.credential(of: account.id)?.email } ?? ""
        if let requested = params.nonEmpty("email"), requested.lowercased() != address.lowercased() {
            try AccountValidation.checkEmail(requested)
            if try await AccountAccess(node: node).read({ db in try db.accounts.emailExists(requested) }) {
                throw NodeError.validation("Email has already been taken")
            }
            address = requested
        }
        try await mail.sendConfirmation(to: account, email: address)
        return APIResponse.json([String: String]())
    }
}
