import Core
import Foundation
import Hummingbird
import Storage

/// `GET /api/v1/trends/*`: what is trending on this node, from public, non-sensitive posts by
/// discoverable accounts outside blocked domains (docs.joinmastodon.org/methods/trends).
struct TrendsController {
    let node: Node

    /// Hashtags trend over the week their `history` shows.
    static let tagWindow: TimeInterval = 7 * 86_400
    /// Posts trend for three days after publication.
    static let statusWindow: TimeInterval = 3 * 86_400

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("api/v1/trends", use: tags)
        router.get("api/v1/trends/tags", use: tags)
        router.get("api/v1/trends/statuses", use: statuses)
        router.get("api/v1/trends/links", use: links)
    }

    /// `GET /api/v1/trends/tags` (and the deprecated `/api/v1/trends`): `Tag` entities with
    /// their 7-day `history`, the ones the most people used this week first; `offset`, `limit`
    /// (10, at most 20).
    @Sendable func tags(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let access = AccountAccess(node: node)
        let viewer = try await access.viewer(of: request, scope: "read")
        let page = try OffsetPage(try await APIParams.read(request), defaultLimit: 10, maxLimit: 20)
        let entities = try await access.read { db -> [APITag] in
            let trending = try db.trends.tags(since: Date() - Self.tagWindow, offset: page.offset, limit: page.limit)
            return try trending.map { try TagHistory.tag($0.hashtag, urls: node.urls, viewer: viewer, in: db) }
        }
        return APIResponse.json(entities, headers: page.headers(for: request, base: node.urls.base, count: entities.count))
    }

    /// `GET /api/v1/trends/statuses`: public posts of the last three days ranked by their likes,
    /// boosts and replies, decayed by age; `offset`, `limit` (20, at most 40).
    @Sendable func statuses(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let viewer = try await StatusAccess.viewer(of: request, node: node, scope: "read")
        let page = try OffsetPage(try await APIParams.read(request), defaultLimit: 20, maxLimit: 40)
        let node = node
        let entities = try await StatusAccess.read(node) { db -> [APIStatus] in
            let now = Date()
            let posts = try db.trends.statuses(since: now - Self.statusWindow, now: now, viewer: viewer?.id,
                                               offset: page.offset, limit: page.limit)
            return try EntityRenderer(node: node, viewer: viewer, db: db).statuses(posts)
        }
        return APIResponse.json(entities, headers: page.headers(for: request, base: node.urls.base, count: entities.count))
    }

    /// `GET /api/v1/trends/links`: preview cards of links in this week's public posts, the
    /// ones the most people shared first, each with its 7-day `history`; `offset`, `limit` (10,
    /// at most 20).
    @Sendable func links(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let access = AccountAccess(node: node)
        _ = try await access.viewer(of: request, scope: "read")
        let page = try OffsetPage(try await APIParams.read(request), defaultLimit: 10, maxLimit: 20)
        let entities = try await access.read { db -> [APIPreviewCard] in
            let trending = try db.previewCards.trending(since: Date() - Self.tagWindow, offset: page.offset, limit: page.limit)
            return try trending.map { link in
                APIPreviewCard(link.card, history: try TagHistory.history { try db.previewCards.dailyUse(of: link.card.id, since: $0) })
            }
        }
        return APIResponse.json(entities, headers: page.headers(for: request, base: node.urls.base, count: entities.count))
    }
}
