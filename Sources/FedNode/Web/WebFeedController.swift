import Core
import Foundation
import Hummingbird
import Storage

/// The feeds: home (`/` when signed in, and `/home`), explore (local and federated photo
/// grids) and a hashtag's page (`/tags/NAME`).
struct WebFeedController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("home", use: home)
        router.get("explore", use: explore)
        router.get("tags/:name", use: tag)
    }

    /// `GET /home` (`max_id` for older posts): the signed-in person's feed as photo cards.
    @Sendable func home(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        guard let me = web.me else { return web.signInFirst() }
        return await web.handling { try await homePage(web, me: me) }
    }

    /// The home feed page of `me` (also what `/` shows to a signed-in person).
    func homePage(_ web: WebContext, me: Account) async throws -> Response {
        let params = try await APIParams.read(web.request)
        let bounds = WebFeeds.bounds(maxId: WebFeeds.maxId(params))
        let page = try await WebFeeds.page(node, viewer: me, context: "home", comments: true) { db in
            try db.timelines.home(of: me.id, page: bounds)
        }
        var model: [String: Any] = ["cards": page.cards, "next": page.nextMaxId as Any, "empty": page.cards.isEmpty && bounds.maxId == nil,
                                    "streamHome": true]
        if page.cards.isEmpty {
            model["suggestions"] = try await suggestions(for: me)
        }
        return try await web.page("home", title: "Home", model: model)
    }

    /// `GET /explore` (`feed=local|federated`, `max_id`): public photo posts as a grid.
    @Sendable func explore(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        return await web.handling {
            let params = try await APIParams.read(request)
            let federated = params.string("feed") == "federated"
            let bounds = WebFeeds.bounds(maxId: WebFeeds.maxId(params))
            let viewer = web.me
            let page = try await WebFeeds.page(node, viewer: viewer, context: "public", comments: false) { db in
                try db.timelines.publicPosts(local: federated ? nil : true, onlyMedia: true, viewer: viewer?.id, page: bounds)
            }
            let model: [String: Any] = ["cards": page.cards, "next": page.nextMaxId as Any, "federated": federated,
                                        "feed": federated ? "federated" : "local", "empty": page.cards.isEmpty]
            return try await web.page("explore", title: "Explore", model: model)
        }
    }

    /// `GET /tags/NAME` (`max_id`): a hashtag's public posts as a grid.
    @Sendable func tag(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        return await web.handling {
            let raw = context.parameters.get("name") ?? ""
            let name = String((raw.removingPercentEncoding ?? raw).drop { $0 == "#" })
            guard !name.isEmpty, name.count <= 100 else { throw NodeError.notFound("No such hashtag") }
            let params = try await APIParams.read(request)
            let bounds = WebFeeds.bounds(maxId: WebFeeds.maxId(params))
            let viewer = web.me
            let page = try await WebFeeds.page(node, viewer: viewer, context: "public", comments: false) { db in
                try db.timelines.tagged(name, local: nil, onlyMedia: false, viewer: viewer?.id, page: bounds)
            }
            let model: [String: Any] = ["name": name, "cards": page.cards, "next": page.nextMaxId as Any, "empty": page.cards.isEmpty]
            let meta = WebMeta(title: "#\(name)", description: "Photos tagged #\(name) on \(node.configuration.nodeName)",
                               image: page.cards.first?.cover?.thumb, url: node.urls.tag(name), activityId: node.urls.tag(name))
            return try await web.page("tag", title: "#\(name)", model: model, meta: meta)
        }
    }

    /// People to follow: friends of friends and active local accounts.
    func suggestions(for me: Account, limit: Int = 6) async throws -> [WebAccountView] {
        try await StatusAccess.read(node) { db -> [WebAccountView] in
            let suggested = try db.suggestions.forAccount(me.id, activeSince: Date() - 30 * 86400, limit: limit)
            return try EntityRenderer(node: node, viewer: me, db: db).accounts(suggested.map(\.account)).map { account in
                var view = WebAccountView(account)
                view.followButton = true
                return view
            }
        }
    }
}
