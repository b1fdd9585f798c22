import Core
import Foundation
import Hummingbird
import Storage

/// `/api/v1/lists`: lists of followed accounts, their members and their timelines
/// (docs.joinmastodon.org/methods/lists, `GET /api/v1/timelines/list/:list_id`).
struct ListsController {
    let node: Node
    private var access: CurationAccess { CurationAccess(node: node) }

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("api/v1/lists", use: index)
        router.post("api/v1/lists", use: create)
        router.get("api/v1/lists/:id", use: show)
        router.put("api/v1/lists/:id", use: update)
        router.delete("api/v1/lists/:id", use: destroy)
        router.get("api/v1/lists/:id/accounts", use: members)
        router.post("api/v1/lists/:id/accounts", use: addMembers)
        router.delete("api/v1/lists/:id/accounts", use: removeMembers)
        router.get("api/v1/accounts/:id/lists", use: listsOfAccount)
        router.get("api/v1/timelines/list/:id", use: timeline)
    }

    /// `GET /api/v1/lists` (read:lists): the caller's lists.
    @Sendable func index(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:lists")
        return APIResponse.json(try await access.read { try $0.lists.all(of: me.id).map(Self.entity) })
    }

    /// `POST /api/v1/lists` (write:lists): `title` (required), `replies_policy`, `exclusive`.
    @Sendable func create(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:lists")
        let list = try await ListService(node: node).create(Self.changes(try await APIParams.read(request)), by: me)
        return APIResponse.json(Self.entity(list))
    }

    /// `GET /api/v1/lists/:id` (read:lists).
    @Sendable func show(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:lists")
        let id = try CurationAccess.pathId(context)
        return APIResponse.json(Self.entity(try await access.read { try CurationAccess.found(try $0.lists.find(id: id, owner: me.id)) }))
    }

    /// `PUT /api/v1/lists/:id` (write:lists): changes the fields sent.
    @Sendable func update(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:lists")
        let (id, params) = (try CurationAccess.pathId(context), try await APIParams.read(request))
        let list = try await ListService(node: node).update(id, Self.changes(params), by: me)
        return APIResponse.json(Self.entity(list))
    }

    /// `DELETE /api/v1/lists/:id` (write:lists): answers `{}`.
    @Sendable func destroy(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:lists")
        let id = try CurationAccess.pathId(context)
        try await ListService(node: node).delete(id, by: me)
        return APIResponse.empty()
    }

    /// `GET /api/v1/lists/:id/accounts` (read:lists): members, newest first, 40 by default,
    /// at most 80; `limit=0` returns every member without pagination, as Mastodon does.
    @Sendable func members(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:lists")
        let id = try CurationAccess.pathId(context)
        let params = try await APIParams.read(request)
        let page = try IntParameter.integer(params.string("limit")) == 0 ? PageBounds(limit: 0) : PageQuery(params, defaultLimit: 40, maxLimit: 80).bounds
        let node = node
        let (entities, cursors) = try await access.read { db -> ([APIAccount], [Int64]) in
            let list = try CurationAccess.found(try db.lists.find(id: id, owner: me.id))
            let items = try db.lists.members(of: list.id, page: page)
            return (try EntityRenderer(node: node, viewer: me, db: db).accounts(items.map(\.item)), items.map(\.cursor))
        }
        let headers = page.limit == 0 ? [:] : PageQuery.headers(for: request, base: node.urls.base, ids: cursors)
        return APIResponse.json(entities, headers: headers)
    }

    /// `POST /api/v1/lists/:id/accounts` (write:lists): `account_ids[]`, each an account the
    /// caller follows (422 otherwise, nothing added). Answers `{}`.
    @Sendable func addMembers(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:lists")
        let (id, ids) = (try CurationAccess.pathId(context), try await Self.accountIds(request))
        try await ListService(node: node).add(ids, to: id, by: me)
        return APIResponse.empty()
    }

    /// `DELETE /api/v1/lists/:id/accounts` (write:lists): `account_ids[]`. Answers `{}`.
    @Sendable func removeMembers(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:lists")
        let (id, ids) = (try CurationAccess.pathId(context), try await Self.accountIds(request))
        try await ListService(node: node).remove(ids, from: id, by: me)
        return APIResponse.empty()
    }

    /// `GET /api/v1/accounts/:id/lists` (read:lists): the caller's lists holding that account.
    @Sendable func listsOfAccount(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:lists")
        let account = try await AccountAccess(node: node).account(context)
        return APIResponse.json(try await access.read { try $0.lists.containing(account.id, owner: me.id).map(Self.entity) })
    }

    /// `GET /api/v1/timelines/list/:list_id` (read:lists): members' posts and boosts the caller
    /// may see, newest first with `Link`; the caller's `home` filters apply, as in Mastodon.
    @Sendable func timeline(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:lists")
        let id = try CurationAccess.pathId(context)
        let page = try PageQuery(try await APIParams.read(request)).bounds
        let list = try await access.read { try CurationAccess.found(try $0.lists.find(id: id, owner: me.id)) }
        return try await TimelinesController(node: node).respond(request, viewer: me, context: "home") { db in
            try db.timelines.list(list, viewer: me.id, page: page)
        }
    }

    /// `account_ids[]` as ids; 422 when none is sent or one is not a number.
    private static func accountIds(_ request: Request) async throws -> [Int64] {
        let raw = try await APIParams.read(request).strings("account_ids")
        let ids = raw.compactMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
        guard !raw.isEmpty, ids.count == raw.count else { throw NodeError.validation("account_ids must be a list of account ids") }
        return Array(Set(ids)).sorted()
    }

    /// `title`, `replies_policy` and `exclusive`, where sent.
    private static func changes(_ params: APIParams) -> ListService.Changes {
        ListService.Changes(title: params.string("title"), repliesPolicy: params.string("replies_policy"),
                      exclusive: params.sent("exclusive") ? params.bool("exclusive") == true : nil)
    }

    /// The `List` entity.
    static func entity(_ list: UserList) -> APIList {
        APIList(id: String(list.id), title: list.title, repliesPolicy: list.repliesPolicy, exclusive: list.exclusive)
    }
}
