import Core
import Foundation
import Hummingbird
import Storage

/// Editing one's profile (avatar and cover, names, bio, links, locked, discoverable) through
/// `ProfileService`, as `PATCH /api/v1/accounts/update_credentials` does, and answering follow
/// requests.
struct WebSettingsController {
    let node: Node
    /// Largest form: an avatar and a cover.
    static let bodyLimit = 34 * 1024 * 1024

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("settings/profile", use: form)
        router.post("settings/profile", use: save)
        router.post("web/follow_requests/:id/authorize") { request, context in try await answer(request, context, approve: true) }
        router.post("web/follow_requests/:id/reject") { request, context in try await answer(request, context, approve: false) }
    }

    /// `GET /settings/profile`: the form, filled in, and the follow requests waiting.
    @Sendable func form(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        guard let me = web.me else { return web.signInFirst() }
        return await web.handling {
            try await show(web, me: me, errors: [], saved: request.uri.queryParameters["saved"] != nil,
                           welcome: request.uri.queryParameters["welcome"] != nil, status: .ok)
        }
    }

    /// `POST /settings/profile` (multipart: avatar, header, remove_avatar, remove_header,
    /// display_name, first_name, last_name, note, field_name1…4, field_value1…4, locked,
    /// discoverable, csrf).
    @Sendable func save(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        guard let me = web.me else { return web.signInFirst() }
        return await web.handling {
            let params: APIParams
            do { params = try await web.form(fileLimit: Self.bodyLimit) } catch NodeError.payloadTooLarge {
                return try await show(web, me: me, errors: ["Those images are too large: at most 16 MB each."], status: .contentTooLarge)
            }
            var changes = ProfileChanges()
            changes.displayName = params.string("display_name") ?? me.displayName
            changes.firstName = params.string("first_name") ?? me.firstName
            changes.lastName = params.string("last_name") ?? me.lastName
            changes.note = params.string("note") ?? me.noteSource
            changes.fields = (1...ProfileChanges.maxFields).map { ProfileField(name: params.string("field_name\($0)") ?? "", value: params.string("field_value\($0)") ?? "") }
                .filter { !$0.name.isEmpty || !$0.value.isEmpty }
            changes.locked = params.bool("locked") == true
            changes.discoverable = params.bool("discoverable") == true
            changes.avatar = params.file("avatar").flatMap { $0.data.isEmpty ? nil : $0.data }
            changes.header = params.file("header").flatMap { $0.data.isEmpty ? nil : $0.data }
            changes.removesAvatar = params.bool("remove_avatar") == true
            changes.removesHeader = params.bool("remove_header") == true
            do { _ = try await node.profiles.update(me, with: changes) } catch NodeError.validation(let message) {
                return try await show(web, me: me, errors: [message.replacingOccurrences(of: "Validation failed: ", with: "")],
                                      status: .unprocessableContent)
            }
            return WebResponses.redirect("/settings/profile?saved=1")
        }
    }

    private func answer(_ request: Request, _ context: NodeRequestContext, approve: Bool) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        guard let me = web.me else { return web.signInFirst() }
        return await web.handling {
            _ = try await web.form()
            let id = try StatusAccess.pathId(context)
            if approve { try await node.interactions.authorizeFollowRequest(from: id, to: me) } else {
                try await node.interactions.rejectFollowRequest(from: id, to: me)
            }
            return WebResponses.redirect("/settings/profile#requests")
        }
    }

    private func show(_ web: WebContext, me: Account, errors: [String], saved: Bool = false, welcome: Bool = false,
                      status: HTTPResponse.Status) async throws -> Response {
        let node = node
        let (current, view, requests) = try await StatusAccess.read(node) { db -> (Account, WebAccountView, [WebAccountView]) in
            guard let current = try db.accounts.find(id: me.id) else { throw NodeError.notFound("There is no such account.") }
            let renderer = EntityRenderer(node: node, viewer: me, db: db)
            let waiting = try db.follows.requesters(of: me.id, page: PageBounds(limit: 40)).map(\.item)
            return (current, WebAccountView(try renderer.account(current)), try renderer.accounts(waiting).map(WebAccountView.init))
        }
        let fields = (0..<ProfileChanges.maxFields).map { index -> [String: String] in
            let field = index < current.fields.count ? current.fields[index] : ProfileField(name: "", value: "")
            return ["number": String(index + 1), "name": field.name, "value": HTMLText.plain(field.value, limit: 300)]
        }
        let model: [String: Any] = [
            "account": view, "displayName": current.displayName, "firstName": current.firstName, "lastName": current.lastName,
            "note": current.noteSource, "fields": fields, "locked": current.locked, "discoverable": current.discoverable,
            "errors": errors, "saved": saved, "welcome": welcome, "requests": requests, "hasRequests": !requests.isEmpty,
            "hasAvatar": current.avatarUrl != nil, "hasHeader": current.headerUrl != nil,
        ]
        return try await web.page("settings_profile", title: "Edit profile", model: model, status: status)
    }
}
