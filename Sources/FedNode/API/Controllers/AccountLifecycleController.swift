import Core
import Foundation
import Hummingbird
import Storage

/// The account's own lifecycle, in GoToSocial's API (Mastodon has none for these):
/// `POST /api/v1/accounts/delete` (delete one's account), `POST /api/v1/user/email_change`
/// (change the sign-in email by a confirmed link) and `GET /api/v1/user` (one's own settings).
struct AccountLifecycleController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.post("api/v1/accounts/delete", use: delete)
        router.post("api/v1/user/email_change", use: changeEmail)
        router.get("api/v1/user", use: user)
    }

    /// `POST /api/v1/accounts/delete` (`write:accounts`; `password`): deletes the caller's
    /// account. 400 without a password, 403 for a wrong one; 202 `{"message": "accepted"}` once
    /// the account is gone here and its `Delete` is queued to every server that knows it.
    @Sendable func delete(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:accounts")
        _ = try await node.throttle("account-delete", rule: node.configuration.rateLimits.signUp, request: request, context: context)
        let params = try await APIParams.read(request)
        try await SelfDeletion(node: node).delete(me, password: params.string("password") ?? "")
        return APIResponse.json(["message": "accepted"], status: .accepted)
    }

    /// `POST /api/v1/user/email_change` (`write:accounts`; `password`, `new_email`): mails a
    /// confirmation link to the new address and a notice to the old one; the address changes
    /// when the link is opened. 202 with the `User` (its `unconfirmed_email` set); 503 when the
    /// node cannot send email; 403 for a wrong password; 422 for an invalid or taken address.
    @Sendable func changeEmail(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:accounts")
        _ = try await node.throttle("email-change", rule: node.configuration.rateLimits.signUp, request: request, context: context)
        let params = try await APIParams.read(request)
        let change = EmailChange(node: node)
        try await change.request(for: me, password: params.string("password") ?? "", newEmail: params.string("new_email") ?? "")
        return APIResponse.json(try await change.user(me), status: .accepted)
    }

    /// `GET /api/v1/user` (`read:accounts`): the caller's `User` (email, address waiting for
    /// confirmation, staff flags).
    @Sendable func user(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:accounts")
        return APIResponse.json(try await EmailChange(node: node).user(me))
    }
}
