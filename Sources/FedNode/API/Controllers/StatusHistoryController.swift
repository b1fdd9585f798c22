import Activity
import Core
import Foundation
import Hummingbird
import Storage

/// A post's versions and its source: `GET /api/v1/statuses/:id/history` and `/source`
/// (docs.joinmastodon.org/methods/statuses#history, #source). Both follow the post's
/// visibility: a post the caller may not see is a 404.
struct StatusHistoryController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("api/v1/statuses/:id/history", use: history)
        router.get("api/v1/statuses/:id/source", use: source)
    }

    /// `GET /api/v1/statuses/:id/history` (a token, when sent, needs read:statuses): the
    /// `StatusEdit`s of the post, the original version first, then each edit; one entry for a
    /// post never edited.
    @Sendable func history(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let viewer = try await StatusAccess.viewer(of: request, node: node, scope: "read:statuses")
        let (node, id) = (node, try StatusAccess.pathId(context))
        let versions = try await StatusAccess.read(node) { db -> [APIStatusEdit] in
            let post = try PostVisibility.visiblePost(id, viewer: viewer, in: db)
            guard post.reblogOfId == nil, let author = try db.accounts.find(id: post.accountId) else {
                throw NodeError.notFound("Record not found")
            }
            let account = try EntityRenderer(node: node, viewer: viewer, db: db).account(author)
            return try PostHistory.entities(of: post, author: account, node: node, in: db)
        }
        return APIResponse.json(versions)
    }

    /// `GET /api/v1/statuses/:id/source` (read:statuses): the caption as typed and the content
    /// warning, for editing. A remote post's caption is its text without markup.
    @Sendable func source(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:statuses")
        let id = try StatusAccess.pathId(context)
        let post = try await StatusAccess.read(node) { db in try PostVisibility.visiblePost(id, viewer: me, in: db) }
        guard post.reblogOfId == nil else { throw NodeError.notFound("Record not found") }
        let text = post.local ? post.text : HTMLSanitizer.plainText(post.content)
        return APIResponse.json(APIStatusSource(id: String(post.id), text: text, spoilerText: post.spoilerText))
    }
}
