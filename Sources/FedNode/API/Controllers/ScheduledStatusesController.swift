import Core
import Foundation
import Hummingbird
import Storage

/// `/api/v1/scheduled_statuses`: the caller's posts waiting to be published; list, read, move
/// and cancel them (docs.joinmastodon.org/methods/scheduled_statuses). They are made by
/// `POST /api/v1/statuses` with `scheduled_at`.
struct ScheduledStatusesController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("api/v1/scheduled_statuses", use: index)
        router.get("api/v1/scheduled_statuses/:id", use: show)
        router.put("api/v1/scheduled_statuses/:id", use: update)
        router.delete("api/v1/scheduled_statuses/:id", use: destroy)
    }

    /// `GET /api/v1/scheduled_statuses` (read:statuses): newest first, paged with `Link`.
    @Sendable func index(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:statuses")
        let page = try PageQuery(try await APIParams.read(request)).bounds
        let node = node
        let (entities, ids) = try await StatusAccess.read(node) { db -> ([APIScheduledStatus], [Int64]) in
            let posts = try db.scheduledPosts.page(of: me.id, page: page)
            return (try posts.map { try Self.entity($0, viewer: me, node: node, db: db) }, posts.map(\.id))
        }
        return APIResponse.json(entities, headers: PageQuery.headers(for: request, base: node.urls.base, ids: ids))
    }

    /// `GET /api/v1/scheduled_statuses/:id` (read:statuses).
    @Sendable func show(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:statuses")
        let id = try StatusAccess.pathId(context)
        let node = node
        return APIResponse.json(try await StatusAccess.read(node) { db -> APIScheduledStatus in
            guard let post = try db.scheduledPosts.find(id: id, owner: me.id) else { throw NodeError.notFound("Record not found") }
            return try Self.entity(post, viewer: me, node: node, db: db)
        })
    }

    /// `PUT /api/v1/scheduled_statuses/:id` (write:statuses): `scheduled_at`, at least five
    /// minutes ahead.
    @Sendable func update(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:statuses")
        let id = try StatusAccess.pathId(context)
        guard let date = try StatusForm.scheduledAt(try await APIParams.read(request)) else {
            throw NodeError.validation("Validation failed: Scheduled at can't be blank")
        }
        let post = try await ScheduledPostService(node: node).reschedule(id, to: date, by: me)
        return try await render(post, viewer: me)
    }

    /// `DELETE /api/v1/scheduled_statuses/:id` (write:statuses): cancels it; answers `{}`.
    @Sendable func destroy(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:statuses")
        try await ScheduledPostService(node: node).cancel(try StatusAccess.pathId(context), by: me)
        return APIResponse.empty()
    }

    /// The entity of `post`.
    func render(_ post: ScheduledPost, viewer: Account) async throws -> Response {
        let node = node
        return APIResponse.json(try await StatusAccess.read(node) { db in try Self.entity(post, viewer: viewer, node: node, db: db) })
    }

    static func entity(_ post: ScheduledPost, viewer: Account, node: Node, db: Transaction) throws -> APIScheduledStatus {
        let renderer = EntityRenderer(node: node, viewer: viewer, db: db)
        let media = try db.media.find(ids: post.mediaIds, ownedBy: viewer.id)
        let ordered = post.mediaIds.compactMap { id in media.first { $0.id == id } }.map(renderer.attachment)
        let params = post.params
        let poll = params.pollOptions.map {
            APIScheduledStatus.Poll(options: $0, expiresIn: String(params.pollExpiresIn ?? 0), multiple: params.pollMultiple ?? false,
                                    hideTotals: params.pollHideTotals ?? false)
        }
        return APIScheduledStatus(
            id: String(post.id), scheduledAt: Timestamps.iso8601(post.scheduledAt),
            params: .init(text: params.text, poll: poll, mediaIds: post.mediaIds.isEmpty ? nil : post.mediaIds.map(String.init),
                          sensitive: params.sensitive, spoilerText: params.spoilerText.isEmpty ? nil : params.spoilerText,
                          visibility: params.visibility, inReplyToId: params.inReplyToId.map(String.init), language: params.language,
                          applicationId: nil, scheduledAt: nil, idempotency: nil, withRateLimit: false),
            mediaAttachments: ordered)
    }
}
