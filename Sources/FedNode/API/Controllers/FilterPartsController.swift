import Core
import Foundation
import Hummingbird
import Storage

/// The keywords and single posts of a v2 filter: `/api/v2/filters/:filter_id/keywords`,
/// `/api/v2/filters/keywords/:id`, `/api/v2/filters/:filter_id/statuses` and
/// `/api/v2/filters/statuses/:id` (docs.joinmastodon.org/methods/filters).
struct FilterPartsController {
    let node: Node
    private var access: CurationAccess { CurationAccess(node: node) }

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("api/v2/filters/:id/keywords", use: keywords)
        router.post("api/v2/filters/:id/keywords", use: addKeyword)
        router.get("api/v2/filters/keywords/:id", use: showKeyword)
        router.put("api/v2/filters/keywords/:id", use: updateKeyword)
        router.delete("api/v2/filters/keywords/:id", use: deleteKeyword)
        router.get("api/v2/filters/:id/statuses", use: statuses)
        router.post("api/v2/filters/:id/statuses", use: addStatus)
        router.get("api/v2/filters/statuses/:id", use: showStatus)
        router.delete("api/v2/filters/statuses/:id", use: deleteStatus)
    }

    /// `GET /api/v2/filters/:filter_id/keywords` (read:filters).
    @Sendable func keywords(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:filters")
        let id = try CurationAccess.pathId(context)
        return APIResponse.json(try await access.read { db in
            let filter = try CurationAccess.found(try db.filters.find(id: id, owner: me.id))
            return try db.filters.keywords(of: [filter.id]).map(FilterSet.keyword)
        })
    }

    /// `POST /api/v2/filters/:filter_id/keywords` (write:filters): `keyword`, `whole_word`.
    @Sendable func addKeyword(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:filters")
        let (id, params) = (try CurationAccess.pathId(context), try await APIParams.read(request))
        let wholeWord = params.string("whole_word").map(FilterForm.flag) ?? true
        let keyword = try await FilterService(node: node).addKeyword(params.string("keyword") ?? "", wholeWord: wholeWord, to: id, by: me)
        return APIResponse.json(FilterSet.keyword(keyword))
    }

    /// `GET /api/v2/filters/keywords/:id` (read:filters).
    @Sendable func showKeyword(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:filters")
        let id = try CurationAccess.pathId(context)
        return APIResponse.json(FilterSet.keyword(try await access.read { try CurationAccess.found(try $0.filters.keyword(id: id, owner: me.id)) }))
    }

    /// `PUT /api/v2/filters/keywords/:id` (write:filters): `keyword`, `whole_word`.
    @Sendable func updateKeyword(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:filters")
        let (id, params) = (try CurationAccess.pathId(context), try await APIParams.read(request))
        let keyword = try await FilterService(node: node).updateKeyword(id, text: params.string("keyword"),
                                                                  wholeWord: params.string("whole_word").map(FilterForm.flag), by: me)
        return APIResponse.json(FilterSet.keyword(keyword))
    }

    /// `DELETE /api/v2/filters/keywords/:id` (write:filters): answers `{}`.
    @Sendable func deleteKeyword(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:filters")
        let id = try CurationAccess.pathId(context)
        try await FilterService(node: node).deleteKeyword(id, by: me)
        return APIResponse.empty()
    }

    /// `GET /api/v2/filters/:filter_id/statuses` (read:filters).
    @Sendable func statuses(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:filters")
        let id = try CurationAccess.pathId(context)
        return APIResponse.json(try await access.read { db in
            let filter = try CurationAccess.found(try db.filters.find(id: id, owner: me.id))
            return try db.filters.statuses(of: [filter.id]).map(FilterSet.status)
        })
    }

    /// `POST /api/v2/filters/:filter_id/statuses` (write:filters): `status_id`, a post the
    /// caller may see (404 otherwise); adding it twice answers the same row.
    @Sendable func addStatus(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:filters")
        let (id, params) = (try CurationAccess.pathId(context), try await APIParams.read(request))
        guard let postId = params.id("status_id") else { throw NodeError.validation("Validation failed: Status can't be blank") }
        return APIResponse.json(FilterSet.status(try await FilterService(node: node).addStatus(postId, to: id, by: me)))
    }

    /// `GET /api/v2/filters/statuses/:id` (read:filters).
    @Sendable func showStatus(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:filters")
        let id = try CurationAccess.pathId(context)
        return APIResponse.json(FilterSet.status(try await access.read { try CurationAccess.found(try $0.filters.status(id: id, owner: me.id)) }))
    }

    /// `DELETE /api/v2/filters/statuses/:id` (write:filters): answers `{}`.
    @Sendable func deleteStatus(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:filters")
        let id = try CurationAccess.pathId(context)
        try await FilterService(node: node).deleteStatus(id, by: me)
        return APIResponse.empty()
    }
}
