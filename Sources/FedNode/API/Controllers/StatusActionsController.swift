import Core
import Foundation
import Hummingbird
import Storage

/// Likes (Mastodon's favourites) and boosts of a post, who did them, and the caller's own
/// liked posts (docs.joinmastodon.org/methods/statuses, /methods/favourites).
struct StatusActionsController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.post("api/v1/statuses/:id/favourite", use: favourite)
        router.post("api/v1/statuses/:id/unfavourite", use: unfavourite)
        router.post("api/v1/statuses/:id/reblog", use: reblog)
        router.post("api/v1/statuses/:id/unreblog", use: unreblog)
        router.get("api/v1/statuses/:id/favourited_by", use: favouritedBy)
        router.get("api/v1/statuses/:id/reblogged_by", use: rebloggedBy)
        router.get("api/v1/favourites", use: favourites)
    }

    /// `POST /api/v1/statuses/:id/favourite` (write:favourites): likes a visible post; answers
    /// the post with `favourited: true`.
    @Sendable func favourite(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:favourites")
        let id = try StatusAccess.pathId(context)
        let post = try await StatusAccess.read(node) { db in try PostVisibility.visibleOriginal(id, viewer: me, in: db) }
        try await node.interactions.like(post.id, by: me)
        return try await StatusAccess.render(node, post, viewer: me)
    }

    /// `POST /api/v1/statuses/:id/unfavourite` (write:favourites): removes the caller's like
    /// (allowed even if the post is no longer visible); answers the post with `favourited: false`.
    @Sendable func unfavourite(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:favourites")
        let id = try StatusAccess.pathId(context)
        let post = try await StatusAccess.read(node) { db -> Post in
            if try db.likes.exists(account: me.id, post: id), let post = try db.posts.find(id: id) { return post }
            return try PostVisibility.visibleOriginal(id, viewer: me, in: db)
        }
        try await node.interactions.unlike(post.id, by: me)
        return try await StatusAccess.render(node, post, viewer: me)
    }

    /// `POST /api/v1/statuses/:id/reblog` (write:statuses): boosts a visible public or unlisted
    /// post (403 for followers-only and direct ones); `visibility` public (default), unlisted
    /// or private. Answers the boost, with the post inside `reblog`.
    @Sendable func reblog(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:statuses")
        let id = try StatusAccess.pathId(context)
        let params = try await APIParams.read(request)
        var visibility = Visibility.public
        if let raw = params.nonEmpty("visibility") {
            guard let known = Visibility(rawValue: raw), known != .direct else { throw NodeError.validation("Validation failed: Visibility is not included in the list") }
            visibility = known
        }
        _ = try await StatusAccess.read(node) { db in try PostVisibility.visiblePost(id, viewer: me, in: db) }
        let boost = try await node.interactions.reblog(id, by: me, visibility: visibility)
        return try await StatusAccess.render(node, boost, viewer: me)
    }

    /// `POST /api/v1/statuses/:id/unreblog` (write:statuses): takes back the caller's boost;
    /// answers the post with `reblogged: false`.
    @Sendable func unreblog(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:statuses")
        let id = try StatusAccess.pathId(context)
        let post = try await StatusAccess.read(node) { db -> Post in
            let target = try db.posts.find(id: id).map { $0.reblogOfId ?? $0.id } ?? id
            if try InteractionService.boost(of: target, by: me.id, in: db) != nil, let post = try db.posts.find(id: target) { return post }
            return try PostVisibility.visibleOriginal(id, viewer: me, in: db)
        }
        try await node.interactions.unreblog(post.id, by: me)
        return try await StatusAccess.render(node, post, viewer: me)
    }

    /// `GET /api/v1/statuses/:id/favourited_by`: who liked a visible post, newest like first,
    /// paginated by like with `Link`; accounts in a block relation with the viewer are left out.
    @Sendable func favouritedBy(_ request: Request, context: NodeRequestContext) async throws -> Response {
        try await people(request, context) { db, post, viewer, page in try db.likes.likers(of: post, viewer: viewer, page: page) }
    }

    /// `GET /api/v1/statuses/:id/reblogged_by`: who boosted a visible post, newest boost first,
    /// paginated by boost with `Link`.
    @Sendable func rebloggedBy(_ request: Request, context: NodeRequestContext) async throws -> Response {
        try await people(request, context) { db, post, viewer, page in try db.posts.boosters(of: post, viewer: viewer, page: page) }
    }

    /// `GET /api/v1/favourites` (read:favourites): the caller's liked posts that are still
    /// visible, newest like first, paginated by like with `Link`.
    @Sendable func favourites(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:favourites")
        let page = try PageQuery(try await APIParams.read(request)).bounds
        let node = node
        let (ids, statuses) = try await StatusAccess.read(node) { db -> ([Int64], [APIStatus]) in
            let newest = try db.likes.likedPosts(by: me.id, page: page)
            let statuses = try EntityRenderer(node: node, viewer: me, db: db).statuses(newest.map(\.item))
            return (newest.map(\.cursor), statuses)
        }
        return APIResponse.json(statuses, headers: PageQuery.headers(for: request, base: node.urls.base, ids: ids))
    }

    /// The accounts `query` lists for the visible post named by the path (a boost stands for
    /// the boosted post), newest row first, paginated by the id of the row that lists them.
    private func people(
        _ request: Request, _ context: NodeRequestContext,
        _ query: @Sendable @escaping (Transaction, _ post: Int64, _ viewer: Int64?, PageBounds) throws -> [PageItem<Account>]
    ) async throws -> Response {
        let viewer = try await StatusAccess.viewer(of: request, node: node, scope: "read:accounts")
        let page = try PageQuery(try await APIParams.read(request)).bounds
        let (node, id) = (node, try StatusAccess.pathId(context))
        let (ids, accounts) = try await StatusAccess.read(node) { db -> ([Int64], [APIAccount]) in
            let post = try PostVisibility.visibleOriginal(id, viewer: viewer, in: db)
            let newest = try query(db, post.id, viewer?.id, page)
            let accounts = try EntityRenderer(node: node, viewer: viewer, db: db).accounts(newest.map(\.item))
            return (newest.map(\.cursor), accounts)
        }
        return APIResponse.json(accounts, headers: PageQuery.headers(for: request, base: node.urls.base, ids: ids))
    }
}
