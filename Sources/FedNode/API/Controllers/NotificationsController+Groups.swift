import Core
import Foundation
import Hummingbird
import Storage

/// `/api/v2/notifications`: Mastodon 4.3's grouped notifications
/// (docs.joinmastodon.org/methods/grouped_notifications). Likes and boosts of one post and new
/// followers within twelve hours show as one group with a count and the newest senders
/// (`NotificationGroupKey`); apps that see version 4.3 in the instance API ask for these.
extension NotificationsController {
    /// The most senders `GET /api/v2/notifications/:group_key/accounts` lists.
    static let groupAccountsLimit = 80

    func addGroupRoutes(to router: Router<NodeRequestContext>) {
        router.get("api/v2/notifications", use: groups)
        router.get("api/v2/notifications/unread_count", use: groupUnreadCount)
        router.get("api/v2/notifications/:group_key", use: showGroup)
        router.get("api/v2/notifications/:group_key/accounts", use: groupAccounts)
        router.post("api/v2/notifications/:group_key/dismiss", use: dismissGroup)
    }

    /// `GET /api/v2/notifications`: a page of groups (default 40, at most 80) with the filters of
    /// the v1 list, `grouped_types[]` (which of favourite, reblog and follow group; all three by
    /// default) and `expand_accounts` (`full` or `partial_avatars`), with a `Link` header.
    @Sendable func groups(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:notifications")
        let params = try await APIParams.read(request)
        let page = try PageQuery(params, defaultLimit: 40, maxLimit: 80).bounds
        let filter = try NotificationFilter(params)
        let grouping = Self.grouping(params)
        let partialAvatars = try Self.partialAvatars(params)
        let (cursors, results) = try await read { db -> ([Int64], APIGroupedNotificationsResults) in
            let found = try db.notifications.groupedPage(of: me.id, types: filter.types, excluding: filter.excludedTypes,
                                                         from: filter.accountId, grouping: grouping, page: page)
            let filters = try FilterSet.load(viewer: me, context: "notifications", db: db)
            let results = try EntityRenderer(node: node, viewer: me, db: db)
                .notificationGroups(found.groups, filters: filters, partialAvatars: partialAvatars)
            return (found.cursors.map { [$0.newest, $0.oldest] } ?? [], results)
        }
        return APIResponse.json(results, headers: PageQuery.headers(for: request, base: node.urls.base, ids: cursors))
    }

    /// `GET /api/v2/notifications/:group_key`: one group of the caller's, counted whole.
    @Sendable func showGroup(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:notifications")
        let key = try Self.groupKey(context)
        let results = try await read { db -> APIGroupedNotificationsResults? in
            guard let group = try db.notifications.group(key, of: me.id) else { return nil }
            let filters = try FilterSet.load(viewer: me, context: "notifications", db: db)
            return try EntityRenderer(node: node, viewer: me, db: db).notificationGroups([group], filters: filters, paginated: false)
        }
        guard let results, !results.notificationGroups.isEmpty else { throw NodeError.notFound("Record not found") }
        return APIResponse.json(results)
    }

    /// `GET /api/v2/notifications/:group_key/accounts`: who caused the group's notifications,
    /// newest first (at most 80); `[]` for a group the caller has nothing in, as Mastodon answers.
    @Sendable func groupAccounts(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:notifications")
        let key = try Self.groupKey(context)
        let accounts = try await read { db -> [APIAccount] in
            let members = try db.notifications.members(of: key, recipient: me.id, limit: Self.groupAccountsLimit)
            return try EntityRenderer(node: node, viewer: me, db: db).accounts(try db.accounts.find(inOrder: members.map(\.fromAccountId)))
        }
        return APIResponse.json(accounts)
    }

    /// `POST /api/v2/notifications/:group_key/dismiss`: deletes every notification of the
    /// caller's in the group. `{}` also when none is left (dismissed twice, or unliked meanwhile),
    /// as Mastodon answers.
    @Sendable func dismissGroup(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:notifications")
        let key = try Self.groupKey(context)
        try await NotificationService(node: node).dismissGroup(key, of: me)
        return APIResponse.empty()
    }

    /// `GET /api/v2/notifications/unread_count`: `{"count": N}`, the groups newer than the
    /// `notifications` marker, at most `limit` (default 100, at most 1000).
    @Sendable func groupUnreadCount(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:notifications")
        let params = try await APIParams.read(request)
        let limit = try params.int(.limit(default: 100, max: 1000))
        let filter = try NotificationFilter(params)
        let grouping = Self.grouping(params)
        let count = try await read { db -> Int in
            try db.notifications.countGroups(of: me.id, types: filter.types, excluding: filter.excludedTypes, from: filter.accountId,
                                             grouping: grouping, sinceId: try Self.lastRead(of: me, in: db), limit: limit)
        }
        return APIResponse.json(["count": count])
    }

    /// The types `grouped_types[]` asks to group (unknown and ungroupable ones ignored), or the
    /// default when it names none.
    static func grouping(_ params: APIParams) -> Set<NotificationType> {
        let asked = Set(params.strings("grouped_types").compactMap(NotificationType.init(rawValue:)))
        return params.strings("grouped_types").isEmpty ? NotificationGroupKey.groupableTypes : asked.intersection(NotificationGroupKey.groupableTypes)
    }

    /// Whether `expand_accounts` asks for partial accounts.
    /// - Throws: `NodeError.badRequest` for a value other than `full` or `partial_avatars`.
    static func partialAvatars(_ params: APIParams) throws(NodeError) -> Bool {
        switch params.string("expand_accounts") {
        case nil, "full": return false
        case "partial_avatars": return true
        case let other?: throw .badRequest("Invalid value for 'expand_accounts': '\(other)', allowed values are 'full' and 'partial_avatars'")
        }
    }

    private static func groupKey(_ context: NodeRequestContext) throws(NodeError) -> NotificationGroupKey {
        guard let key = context.parameters.get("group_key").flatMap(NotificationGroupKey.init) else { throw .notFound("Record not found") }
        return key
    }
}
