import Core
import Foundation
import Hummingbird
import Storage

/// `/api/v1/notifications`: the signed-in person's notifications, newest first
/// (docs.joinmastodon.org/methods/notifications). Entries whose post they can no longer see,
/// or whose author they are in a block relation with, are left out (`NotificationVisibility`).
struct NotificationsController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("api/v1/notifications", use: list)
        router.get("api/v1/notifications/unread_count", use: unreadCount)
        router.get("api/v1/notifications/:id", use: show)
        router.post("api/v1/notifications/clear", use: clear)
        router.post("api/v1/notifications/dismiss", use: dismissLegacy)
        router.post("api/v1/notifications/:id/dismiss", use: dismiss)
        addGroupRoutes(to: router)
    }

    /// `GET /api/v1/notifications`: a page (default 40, at most 80) filtered by `types[]`,
    /// `exclude_types[]` and `account_id`, with a `Link` header.
    @Sendable func list(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:notifications")
        let params = try await APIParams.read(request)
        let page = try PageQuery(params, defaultLimit: 40, maxLimit: 80).bounds
        let filter = try NotificationFilter(params)
        let (ids, entities) = try await read { db -> ([Int64], [APINotification]) in
            let items = try db.notifications.page(of: me.id, types: filter.types, excluding: filter.excludedTypes, from: filter.accountId,
                                                  page: page)
            let filters = try FilterSet.load(viewer: me, context: "notifications", db: db)
            return (items.map(\.id), filters.apply(to: try EntityRenderer(node: node, viewer: me, db: db).notifications(items)))
        }
        return APIResponse.json(entities, headers: PageQuery.headers(for: request, base: node.urls.base, ids: ids))
    }

    /// `GET /api/v1/notifications/:id`: one notification of the caller's (404 for anyone else's).
    @Sendable func show(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:notifications")
        let id = try notificationId(context)
        let entity = try await read { db -> APINotification? in
            guard let item = try db.notifications.find(id: id), item.accountId == me.id,
                try NotificationVisibility.isVisible(item, in: db)
            else { return nil }
            return try EntityRenderer(node: node, viewer: me, db: db).notification(item)
        }
        guard let entity else { throw NodeError.notFound("Record not found") }
        return APIResponse.json(entity)
    }

    /// `GET /api/v1/notifications/unread_count`: `{"count": N}`, at most `limit` (default 100,
    /// at most 1000), with the list's filters: those newer than the `notifications` marker
    /// (`POST /api/v1/markers`), or all when there is none.
    @Sendable func unreadCount(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:notifications")
        let params = try await APIParams.read(request)
        let limit = try params.int(.limit(default: 100, max: 1000))
        let filter = try NotificationFilter(params)
        let count = try await read { db -> Int in
            try db.notifications.count(of: me.id, types: filter.types, excluding: filter.excludedTypes, from: filter.accountId,
                                       after: try Self.lastRead(of: me, in: db), limit: limit)
        }
        return APIResponse.json(["count": count])
    }

    /// `POST /api/v1/notifications/clear`: deletes all of the caller's notifications.
    @Sendable func clear(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:notifications")
        try await NotificationService(node: node).clear(of: me)
        return APIResponse.empty()
    }

    /// `POST /api/v1/notifications/:id/dismiss`: deletes one notification of the caller's.
    @Sendable func dismiss(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:notifications")
        try await NotificationService(node: node).dismiss(try notificationId(context), of: me)
        return APIResponse.empty()
    }

    /// `POST /api/v1/notifications/dismiss` with `id` (deprecated since Mastodon 3.0, still sent
    /// by older apps).
    @Sendable func dismissLegacy(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:notifications")
        guard let id = try await APIParams.read(request).id("id") else { throw NodeError.notFound("Record not found") }
        try await NotificationService(node: node).dismiss(id, of: me)
        return APIResponse.empty()
    }

    private func notificationId(_ context: NodeRequestContext) throws(NodeError) -> Int64 {
        guard let id = context.parameters.get("id").flatMap(Int64.init) else { throw .notFound("Record not found") }
        return id
    }

    /// The id of the last notification `me` read (the `notifications` marker), if any.
    static func lastRead(of me: Account, in db: Transaction) throws -> Int64? {
        try db.markers.find(account: me.id, timelines: ["notifications"]).first.flatMap { Int64($0.lastReadId) }
    }

    /// Runs `body` in a read transaction; storage errors become 500s.
    func read<T: Sendable>(_ body: @Sendable (Transaction) throws -> T) async throws(NodeError) -> T {
        do { return try await node.database.read(body) } catch let error as NodeError { throw error } catch {
            throw .internal("notifications read: \(error)")
        }
    }
}

/// The list filters of `GET /api/v1/notifications` and `/api/v2/notifications`: `types[]`,
/// `exclude_types[]`, `account_id`.
struct NotificationFilter: Sendable {
    /// Only these types (empty: all).
    var types: [String]
    /// Never these types.
    var excludedTypes: [String]
    /// Only notifications caused by this account.
    var accountId: Int64?

    /// Reads the filters from the request's parameters.
    /// - Throws: `NodeError.notFound` for an `account_id` that cannot be an id.
    init(_ params: APIParams) throws(NodeError) {
        types = params.strings("types")
        excludedTypes = params.strings("exclude_types")
        accountId = try params.recordId("account_id")
    }
}
