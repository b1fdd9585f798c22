import Core
import Foundation
import Hummingbird
import Storage

/// `/api/v2/filters`: content filters with keywords and single posts, and the v1 view
/// of their keywords (docs.joinmastodon.org/methods/filters).
struct FiltersController {
    let node: Node
    private var access: CurationAccess { CurationAccess(node: node) }

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("api/v2/filters", use: index)
        router.post("api/v2/filters", use: create)
        router.get("api/v2/filters/:id", use: show)
        router.put("api/v2/filters/:id", use: update)
        router.delete("api/v2/filters/:id", use: destroy)
        router.get("api/v1/filters", use: indexV1)
        router.get("api/v1/filters/:id", use: showV1)
        router.post("api/v1/filters", use: createV1)
        router.put("api/v1/filters/:id", use: updateV1)
        router.delete("api/v1/filters/:id", use: destroyV1)
    }

    /// `GET /api/v2/filters` (read:filters): the caller's filters, expired ones included.
    @Sendable func index(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:filters")
        return APIResponse.json(try await access.read { db in
            try FilterSet.loadAll(try db.filters.all(of: me.id), db: db).map(FilterSet.entity)
        })
    }

    /// `POST /api/v2/filters` (write:filters): `title`, `context[]`, `filter_action`,
    /// `expires_in`, `keywords_attributes[]` (`keyword`, `whole_word`).
    @Sendable func create(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:filters")
        let form = FilterForm(params: try await APIParams.read(request))
        let created = try await FilterService(node: node).create(try form.changes(), keywords: try form.keywordChanges(), by: me)
        return APIResponse.json(try await access.read { db in try Self.entity(created, db: db) })
    }

    /// `GET /api/v2/filters/:id` (read:filters).
    @Sendable func show(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:filters")
        let id = try CurationAccess.pathId(context)
        return APIResponse.json(try await access.read { db in
            try Self.entity(try CurationAccess.found(try db.filters.find(id: id, owner: me.id)), db: db)
        })
    }

    /// `PUT /api/v2/filters/:id` (write:filters): the fields sent, and keyword changes
    /// (`keywords_attributes[][id]` with `_destroy` to remove one).
    @Sendable func update(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:filters")
        let id = try CurationAccess.pathId(context)
        let form = FilterForm(params: try await APIParams.read(request))
        let filter = try await FilterService(node: node).update(id, try form.changes(), keywords: try form.keywordChanges(), by: me)
        return APIResponse.json(try await access.read { db in try Self.entity(filter, db: db) })
    }

    /// `DELETE /api/v2/filters/:id` (write:filters): answers `{}`.
    @Sendable func destroy(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:filters")
        let id = try CurationAccess.pathId(context)
        try await FilterService(node: node).delete(id, by: me)
        return APIResponse.empty()
    }

    /// `GET /api/v1/filters` (read:filters): each keyword of the caller's filters as a v1
    /// filter, as Mastodon 4 shows them to older apps.
    @Sendable func indexV1(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:filters")
        return APIResponse.json(try await access.read { db in try Self.v1Filters(of: me.id, db: db) })
    }

    /// `GET /api/v1/filters/:id` (read:filters): one keyword as a v1 filter.
    @Sendable func showV1(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:filters")
        let id = try CurationAccess.pathId(context)
        return APIResponse.json(try await access.read { db in
            try CurationAccess.found(try Self.v1Filters(of: me.id, db: db).first { $0.id == String(id) })
        })
    }

    /// `POST /api/v1/filters` (write:filters): `phrase`, `context[]`, `irreversible`,
    /// `whole_word` and `expires_in`; as Mastodon 4, a filter titled after its one keyword.
    /// Answers the v1 filter.
    @Sendable func createV1(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:filters")
        let form = FilterForm(params: try await APIParams.read(request))
        let (filter, keyword) = try await FilterService(node: node).createV1(
            phrase: form.params.string("phrase") ?? "", wholeWord: form.params.bool("whole_word") ?? true, try form.v1Changes(), by: me)
        return APIResponse.json(Self.v1Filter(filter, keyword))
    }

    /// `PUT /api/v1/filters/:id` (write:filters): the parameters of `createV1` that are sent.
    @Sendable func updateV1(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:filters")
        let id = try CurationAccess.pathId(context)
        let form = FilterForm(params: try await APIParams.read(request))
        let (filter, keyword) = try await FilterService(node: node).updateV1(
            id, phrase: form.params.string("phrase"), wholeWord: form.params.bool("whole_word"), try form.v1Changes(), by: me)
        return APIResponse.json(Self.v1Filter(filter, keyword))
    }

    /// `DELETE /api/v1/filters/:id` (write:filters): removes the keyword (and its filter when
    /// nothing else is in it); answers `{}`.
    @Sendable func destroyV1(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:filters")
        try await FilterService(node: node).deleteV1(try CurationAccess.pathId(context), by: me)
        return APIResponse.empty()
    }

    /// The `V1::Filter` entity of one keyword of `filter`.
    static func v1Filter(_ filter: ContentFilter, _ keyword: FilterKeyword) -> APIFilterV1 {
        APIFilterV1(id: String(keyword.id), phrase: keyword.keyword, context: filter.contextList,
                    expiresAt: filter.expiresAt.map(Timestamps.iso8601), irreversible: filter.action == "hide", wholeWord: keyword.wholeWord)
    }

    /// The `Filter` entity of `filter` with its keywords and posts.
    static func entity(_ filter: ContentFilter, db: Transaction) throws -> APIFilter {
        FilterSet.entity(try FilterSet.loadAll([filter], db: db)[0])
    }

    private static func v1Filters(of accountId: Int64, db: Transaction) throws -> [APIFilterV1] {
        try FilterSet.loadAll(try db.filters.all(of: accountId), db: db).flatMap { item in
            item.keywords.map { keyword in v1Filter(item.filter, keyword) }
        }
    }
}
