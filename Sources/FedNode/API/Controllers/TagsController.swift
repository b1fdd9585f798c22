import Foundation
import Hummingbird
import Storage

/// `GET /api/v1/tags/:name`: a hashtag with its last week of use.
struct TagsController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("api/v1/tags/:name", use: show)
    }

    /// `GET /api/v1/tags/:name`: the `Tag` with `history` (7 days, newest first) and, for a
    /// signed-in viewer, `following: false`. 404 for a tag never used here. A token, when sent,
    /// needs `read:follows`.
    @Sendable func show(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let access = AccountAccess(node: node)
        let viewer = try await access.viewer(of: request, scope: "read:follows")
        let name = SearchService.tagName(context.parameters.get("name")?.removingPercentEncoding ?? "")
        let tag = try await access.read { db -> APITag? in
            guard !name.isEmpty, let hashtag = try db.tags.find(name: name) else { return nil }
            return try TagHistory.tag(hashtag, urls: node.urls, viewer: viewer, in: db)
        }
        guard let tag else { throw NodeError.notFound("Record not found") }
        return APIResponse.json(tag)
    }
}
