import Foundation
import GRDB
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
    }

    /// `GET /api/v1/timelines/home` (read:statuses): posts and boosts from the accounts the
    /// caller follows and the caller's own, each still visible to the caller.
    @Sendable func home(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:statuses")
        let page = PageQuery(try await APIParams.read(request))
        return try await respond(request, viewer: me, page: page, from: """
            home_timeline h JOIN posts p ON p.id = h.post_id
            """, where: "h.account_id = ?", arguments: [me.id], pageColumn: "h.post_id")
    }

    /// `GET /api/v1/timelines/public`: public posts (no boosts, no comments on others' posts);
    /// `local` or `remote` for this node's or other nodes' only, `only_media` for photo posts.
    @Sendable func publicTimeline(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let viewer = try await StatusAccess.viewer(of: request, node: node, scope: "read:statuses")
        let params = try await APIParams.read(request)
        var filters = [
            "p.visibility = 'public'", "p.reblog_of_id IS NULL",
            // Mastodon keeps replies off public timelines, except an author's own thread.
            "((p.in_reply_to_id IS NULL AND p.in_reply_to_uri IS NULL) OR p.in_reply_to_account_id = p.account_id)",
        ]
        filters += Self.originFilters(params)
        return try await respond(request, viewer: viewer, page: PageQuery(params), from: "posts p",
                                 where: filters.joined(separator: " AND "), arguments: [], pageColumn: "p.id")
    }

    /// `GET /api/v1/timelines/tag/:hashtag`: public posts carrying the hashtag (any case);
    /// `local`, `remote` and `only_media` as on the public timeline.
    @Sendable func tag(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let viewer = try await StatusAccess.viewer(of: request, node: node, scope: "read:statuses")
        let params = try await APIParams.read(request)
        let raw = context.parameters.get("hashtag") ?? ""
        let name = String((raw.removingPercentEncoding ?? raw).drop { $0 == "#" })
        var filters = [
            "p.visibility = 'public'", "p.reblog_of_id IS NULL",
            "EXISTS (SELECT 1 FROM post_hashtags ph JOIN hashtags t ON t.id = ph.hashtag_id WHERE ph.post_id = p.id AND t.name = ? COLLATE NOCASE)",
        ]
        filters += Self.originFilters(params)
        return try await respond(request, viewer: viewer, page: PageQuery(params), from: "posts p",
                                 where: filters.joined(separator: " AND "), arguments: [name], pageColumn: "p.id")
    }

    /// `local`, `remote` and `only_media` as SQL conditions on `p`.
    private static func originFilters(_ params: APIParams) -> [String] {
        var filters: [String] = []
        if params.bool("local") == true { filters.append("p.local = 1") } else if params.bool("remote") == true { filters.append("p.local = 0") }
        if params.bool("only_media") == true { filters.append("EXISTS (SELECT 1 FROM media_attachments m WHERE m.post_id = p.id)") }
        return filters
    }

    /// One page of posts `p` from `source` matching `condition`, kept when `viewer` may see
    /// them (and, for boosts, the boosted post), rendered newest first with `Link`.
    private func respond(_ request: Request, viewer: Account?, page: PageQuery, from source: String, where condition: String,
                         arguments: StatementArguments, pageColumn: String) async throws(NodeError) -> Response {
        let node = node
        let (posts, statuses) = try await StatusAccess.read(node) { db -> ([Post], [APIStatus]) in
            let (range, rangeArguments) = page.condition(pageColumn)
            let visible = PostVisibility.condition("p", viewer: viewer?.id)
            let original = StatusAccess.originalVisible("p", viewer: viewer?.id)
            let posts = page.newestFirst(try Post.fetchAll(db.grdb, sql: """
                SELECT p.* FROM \(source) WHERE \(condition) AND \(range) AND \(visible.sql) AND \(original.sql)
                ORDER BY \(page.order(pageColumn)) LIMIT ?
                """, arguments: arguments + StatementArguments(rangeArguments) + visible.arguments + original.arguments + [page.limit]))
            return (posts, try EntityRenderer(node: node, viewer: viewer, db: db).statuses(posts))
        }
        return APIResponse.json(statuses, headers: PageQuery.headers(for: request, base: node.urls.base, ids: posts.map(\.id)))
    }
}
