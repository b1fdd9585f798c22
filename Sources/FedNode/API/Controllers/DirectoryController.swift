import Core
import Foundation
import Hummingbird
import Storage

/// `GET /api/v1/directory`: the profile directory (docs.joinmastodon.org/methods/directory).
struct DirectoryController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("api/v1/directory", use: index)
    }

    /// `GET /api/v1/directory`: discoverable accounts, `order=active` (default; most recent post
    /// first) or `new`, `local=true` for this node's only, paged by `offset` and `limit` (40,
    /// at most 80). Works anonymously; a token, when sent, must be valid and is used to leave out
    /// accounts blocked either way. Any other `order` is a 422, as Mastodon's validation.
    @Sendable func index(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let access = AccountAccess(node: node)
        let viewer = try await access.viewer(of: request, scope: "read:accounts")
        let params = try await APIParams.read(request)
        guard let order = DirectoryOrder(rawValue: params.nonEmpty("order") ?? "active") else {
            throw NodeError.validation("Validation failed: order must be active or new")
        }
        let page = try OffsetPage(params, defaultLimit: 40, maxLimit: 80)
        let localOnly = params.bool("local") == true
        let entities = try await access.read { db -> [APIAccount] in
            let accounts = try db.directory.accounts(viewer: viewer?.id, localOnly: localOnly, order: order,
                                                     offset: page.offset, limit: page.limit)
            return try EntityRenderer(node: node, viewer: viewer, db: db).accounts(accounts)
        }
        return APIResponse.json(entities)
    }
}
