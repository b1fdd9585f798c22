import Core
import Foundation
import Hummingbird
import Storage

/// `/api/v1/timelines`: the home timeline (fan-out rows) and the public and hashtag timelines
/// (index scans over posts), newest first with `Link` pagination
/// (docs.joinmastodon.org/methods/timelines).
struct TimelinesController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("api/v1/timelines/home", use: home)
        router.get("api/v1/timelines/public", use: publicTimeline)
        router.get("api/v1/timelines/tag/:hashtag", use: tag)
        router.get("api/v1/timelines/direct", use: direct)
    }

    /// `GET /api/v1/timelines/direct` (read:statuses): the direct posts the caller wrote or is
    /// mentioned in, newest first (the flat view of `/api/v1/conversations`, which older apps read).
    @Sendable func direct(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:statuses")
        let page = try PageQuery(try await APIParams.read(request)).bounds
        return try await respond(request, viewer: me, context: "thread") { db in try db.timelines.direct(of: me.id, page: page) }
    }

    /// `GET /api/v1/timelines/home` (read:statuses): posts and boosts from the accounts the
    /// caller follows and the caller's own, each still visible to the caller.
    @Sendable func home(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:statuses")
        let page = try PageQuery(try await APIParams.read(request)).bounds
        return try await respond(request, viewer: me, context: "home") { db in try db.timelines.home(of: me.id, page: page) }
    }

    /// `GET /api/v1/timelines/public`: public posts (no boosts, no comments on others' posts);
    /// `local` or `remote` for this node's or other nodes' only, `only_media` for photo posts.
    @Sendable func publicTimeline(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let viewer = try await StatusAccess.viewer(of: request, node: node, scope: "read:statuses")
        let params = try await APIParams.read(request)
        let (local, onlyMedia, page) = (Self.origin(params), params.bool("only_media") == true, try PageQuery(params).bounds)
        return try await respond(request, viewer: viewer, context: "public") { db in
            try db.timelines.publicPosts(local: local, onlyMedia: onlyMedia, viewer: viewer?.id, page: page)
        }
    }

    /// `GET /api/v1/timelines/tag/:hashtag`: public posts carrying the hashtag (any case);
    /// `local`, `remote` and `only_media` as on the public timeline.
    @Sendable func tag(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let viewer = try await StatusAccess.viewer(of: request, node: node, scope: "read:statuses")
        let params = try await APIParams.read(request)
        let raw = context.parameters.get("hashtag") ?? ""
        let name = String((raw.removingPercentEncoding ?? raw).drop { $0 == "#" })
        let (local, onlyMedia, page) = (Self.origin(params), params.bool("only_media") == true, try PageQuery(params).bounds)
        return try await respond(request, viewer: viewer, context: "public") { db in
            try db.timelines.tagged(name, local: local, onlyMedia: onlyMedia, viewer: viewer?.id, page: page)
        }
    }

    /// `local` and `remote`: `true` for this node's posts only, `false` for other nodes' only,
    /// `nil` for all (`local` wins when both are sent).
    private static func origin(_ params: APIParams) -> Bool? {
        if params.bool("local") == true { return true }
        return params.bool("remote") == true ? false : nil
    }

    /// One page of posts read by `query` (which keeps only those `viewer` may see, and, for
    /// boosts, whose boosted post the viewer may see), rendered newest first with `Link`, with
    /// the viewer's filters of `context` applied (the `Link` still spans the whole page read).
    func respond(_ request: Request, viewer: Account?, context filterContext: String,
                 _ query: @Sendable @escaping (Transaction) throws -> [Post]) async throws(NodeError) -> Response {
        let node = node
        let (posts, statuses) = try await StatusAccess.read(node) { db -> ([Post], [APIStatus]) in
            let posts = try query(db)
            let filters = try FilterSet.load(viewer: viewer, context: filterContext, db: db)
            return (posts, filters.apply(to: try EntityRenderer(node: node, viewer: viewer, db: db).statuses(posts)))
        }
        return APIResponse.json(statuses, headers: PageQuery.headers(for: request, base: node.urls.base, ids: posts.map(\.id)))
    }
}
