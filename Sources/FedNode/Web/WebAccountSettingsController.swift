import Foundation
import Hummingbird
import Storage

/// Account settings: change the password (every other session signs in again) and see and
/// revoke the browser sessions and authorised apps, which are all OAuth tokens.
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
        return await web.handling { try await page(web, me: me, notice: request.uri.queryParameters["changed"] != nil ? "Password changed." : nil) }
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

    private func page(_ web: WebContext, me: Account, notice: String? = nil, error: String? = nil,
                      status: HTTPResponse.Status = .ok) async throws -> Response {
        let current = web.session?.token.id
        let sessions = try await StatusAccess.read(node) { db -> [[String: String]] in
            try db.oauth.activeTokens(of: me.id).map { token in
                let app = try token.appId.flatMap { try db.oauth.app(id: $0) }?.name
                var row = ["id": String(token.id), "name": app ?? "Web browser", "since": token.createdAt.formatted(date: .abbreviated, time: .shortened)]
                if token.id == current { row["current"] = "this browser" }
                return row
            }
        }
        var model: [String: Any] = ["sessions": sessions]
        if let notice { model["notice"] = notice }
        if let error { model["error"] = error }
        return try await web.page("settings_account", title: "Account settings", model: model, status: status)
    }
}
