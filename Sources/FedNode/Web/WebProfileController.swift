import Core
import Foundation
import Hummingbird
import Storage

/// Profiles: `/@name` (local, the HTML side of the actor's URL) and `/@name@domain` (a remote
/// account as this node knows it), their followers and following, and the follow, unfollow,
/// block and unblock buttons.
struct WebProfileController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("web/accounts/:id/followers", use: followers)
        router.get("web/accounts/:id/following", use: following)
        for action in ["follow", "unfollow", "block", "unblock"] {
            router.post("web/accounts/:id/\(action)") { request, context in try await relate(request, context, action: action) }
        }
    }

    /// The profile page of `account` (local or remote): cover, avatar, names, bio, links,
    /// counts, the relationship button and a grid of photo posts (`max_id` pages it).
    func page(_ request: Request, account: Account) async -> Response {
        let web = await WebContext.of(request, node: node)
        return await web.handling {
            let viewer = web.me
            let node = node
            let bounds = WebFeeds.bounds(maxId: try await APIParams.read(request).id("max_id"))
            let (view, relationship) = try await StatusAccess.read(node) { db -> (WebAccountView, APIRelationship?) in
                let renderer = EntityRenderer(node: node, viewer: viewer, db: db)
                let relationship = try viewer.flatMap { $0.id == account.id ? nil : try renderer.relationship(with: account.id) }
                return (WebAccountView(try renderer.account(account)), relationship)
            }
            let grid = try await WebFeeds.page(node, viewer: viewer, context: "account", comments: false) { db in
                try db.timelines.profile(of: account.id, viewer: viewer?.id, onlyMedia: false, excludeReplies: true,
                                         excludeReblogs: true, tagged: nil, page: bounds)
            }
            let model: [String: Any] = [
                "account": view, "fullHandle": view.local ? "@\(account.username)@\(node.urls.domain)" : view.handle, "cards": grid.cards, "next": grid.nextMaxId as Any, "empty": grid.cards.isEmpty,
                "self": viewer?.id == account.id, "signedIn": viewer != nil,
                "isFollowing": relationship?.following == true, "isRequested": relationship?.requested == true,
                "isBlocking": relationship?.blocking == true, "isFollowedBy": relationship?.followedBy == true,
                "canFollow": relationship.map { !$0.following && !$0.requested && !$0.blocking && !$0.blockedBy } ?? false,
            ]
            let meta = WebMeta(title: "\(view.name) (\(view.handle))", description: HTMLText.plain(view.note, limit: 160),
                               image: view.avatar, url: account.url ?? account.uri, activityId: account.uri)
            return try await web.page("profile", title: "\(view.name) (\(view.handle))", model: model, meta: meta)
        }
    }

    /// `/@name@domain`: the remote account this node knows, looked up on its server when a
    /// signed-in person asks for one it does not know yet.
    func remote(_ request: Request, acct: String) async -> Response {
        let web = await WebContext.of(request, node: node)
        let parts = acct.split(separator: "@", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return await web.error(.notFound, "There is no such account.") }
        if parts[1].lowercased() == node.urls.domain.lowercased() { return WebResponses.redirect("/@" + parts[0]) }
        var found = try? await node.database.read { db in try db.accounts.find(username: parts[0], domain: parts[1]) }
        if found == nil, let me = web.me {
            found = try? await SearchService(node: node).accounts(.init(text: acct, limit: 1, resolve: true), viewer: me).first
        }
        guard let account = found, !account.isLocal else {
            return await web.error(.notFound, web.me == nil ? "This server does not know that account yet. Log in to look it up."
                                                             : "No account \(acct) was found.")
        }
        return await page(request, account: account)
    }

    /// `GET /web/accounts/:id/followers`.
    @Sendable func followers(_ request: Request, context: NodeRequestContext) async throws -> Response {
        try await people(request, context, title: "Followers") { db, id, page in try db.follows.followers(of: id, page: page) }
    }

    /// `GET /web/accounts/:id/following`.
    @Sendable func following(_ request: Request, context: NodeRequestContext) async throws -> Response {
        try await people(request, context, title: "Following") { db, id, page in try db.follows.following(of: id, page: page) }
    }

    private func people(_ request: Request, _ context: NodeRequestContext, title: String,
                        _ query: @Sendable @escaping (Transaction, Int64, PageBounds) throws -> [PageItem<Account>]) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        return await web.handling {
            let id = try StatusAccess.pathId(context)
            let viewer = web.me
            let node = node
            let (owner, people) = try await StatusAccess.read(node) { db -> (WebAccountView, [WebAccountView]) in
                guard let account = try db.accounts.find(id: id) else { throw NodeError.notFound("There is no such account.") }
                let renderer = EntityRenderer(node: node, viewer: viewer, db: db)
                return (WebAccountView(try renderer.account(account)),
                        try renderer.accounts(try query(db, id, PageBounds(limit: 40)).map(\.item)).map(WebAccountView.init))
            }
            return try await web.page("people", title: "\(title) of \(owner.name)",
                                      model: ["owner": owner, "heading": title, "people": people, "empty": people.isEmpty])
        }
    }

    /// `POST /web/accounts/:id/{follow,unfollow,block,unblock}` (csrf, back).
    private func relate(_ request: Request, _ context: NodeRequestContext, action: String) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        guard let me = web.me else { return web.signInFirst() }
        return await web.handling {
            let params = try await web.form()
            let id = try StatusAccess.pathId(context)
            guard id != me.id else { throw NodeError.validation("You cannot do that to yourself.") }
            guard let target = try await StatusAccess.read(node, { db in try db.accounts.find(id: id) }) else {
                throw NodeError.notFound("There is no such account.")
            }
            switch action {
            case "follow": _ = try await node.interactions.follow(target, by: me)
            case "unfollow": try await node.interactions.unfollow(target, by: me)
            case "block": try await node.interactions.block(target, by: me)
            default: try await node.interactions.unblock(target, by: me)
            }
            return web.back(params, or: target.isLocal ? "/@\(target.username)" : "/@\(target.username)@\(target.domain ?? "")")
        }
    }
}
