import Core
import Foundation
import Hummingbird
import Storage

/// Account settings: change the password (every other session signs in again), see and revoke
/// the browser sessions and authorised apps (all OAuth tokens), and the forms of
/// `WebAccountLifecycleController` (change the email, delete the account).
struct WebAccountSettingsController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("settings/account", use: show)
        router.post("settings/password", use: changePassword)
        router.post("web/sessions/:id/revoke", use: revoke)
    }

    /// `GET /settings/account`.
    @Sendable func show(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        guard let me = web.me else { return web.signInFirst() }
        let query = request.uri.queryParameters
        let notice = query["changed"] != nil ? "Password changed."
            : query["email"] == "sent" ? "Check your new address: the change takes effect once you open the link we sent there." : nil
        return await web.handling { try await page(web, me: me, notice: notice) }
    }

    /// `POST /settings/password` (current, password, csrf): on success this browser gets a new
    /// session and every other one is signed out.
    @Sendable func changePassword(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        guard let me = web.me else { return web.signInFirst() }
        return await web.handling {
            let params = try await web.form()
            do {
                try await node.accounts.changePassword(of: me, current: params.string("current") ?? "", to: params.string("password") ?? "",
                                                       cost: node.configuration.passwordCost)
            } catch NodeError.forbidden(let message) {
                return try await page(web, me: me, error: message, status: .forbidden)
            } catch NodeError.validation(let message) {
                return try await page(web, me: me, error: message, status: .unprocessableContent)
            }
            let cookies = try await WebSession.start(for: me, remember: false, replacing: request, node: node)
            return WebResponses.redirect("/settings/account?changed=1", cookies: cookies)
        }
    }

    /// `POST /web/sessions/:id/revoke` (csrf): signs out one session or app.
    @Sendable func revoke(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        guard let me = web.me else { return web.signInFirst() }
        return await web.handling {
            _ = try await web.form()
            let id = try StatusAccess.pathId(context)
            _ = try await node.database.write { db in try db.oauth.revoke(tokenId: id, of: me.id) }
            return WebResponses.redirect(id == web.session?.token.id ? "/" : "/settings/account")
        }
    }

    /// The settings page, with a `notice` after a change or the `error` of a refused form.
    func page(_ web: WebContext, me: Account, notice: String? = nil, error: String? = nil,
              status: HTTPResponse.Status = .ok) async throws -> Response {
        let current = web.session?.token.id
        let (sessions, email, pending) = try await StatusAccess.read(node) { db -> ([[String: String]], String, String?) in
            let sessions = try db.oauth.activeTokens(of: me.id).map { token in
                let app = try token.appId.flatMap { try db.oauth.app(id: $0) }?.name
                var row = ["id": String(token.id), "name": app ?? "Web browser", "since": token.createdAt.formatted(date: .abbreviated, time: .shortened)]
                if token.id == current { row["current"] = "this browser" }
                return row
            }
            return (sessions, try db.accounts.credential(of: me.id)?.email ?? "", try db.emailChanges.pending(of: me.id))
        }
        var model: [String: Any] = ["sessions": sessions, "email": email, "pendingEmail": pending as Any,
                                    "canMail": node.mailer != nil]
        if let notice { model["notice"] = notice }
        if let error { model["error"] = error }
        return try await web.page("settings_account", title: "Account settings", model: model, status: status)
    }
}
