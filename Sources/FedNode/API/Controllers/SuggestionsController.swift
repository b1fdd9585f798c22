import Core
import Foundation
import Hummingbird
import Storage

/// Follow suggestions (docs.joinmastodon.org/methods/suggestions): friends of friends first,
/// then local accounts whose recent public posts drew the most interactions.
struct SuggestionsController {
    let node: Node

    /// How far back "recent" posts go for `most_interactions`.
    static let activeWindow: TimeInterval = 30 * 86_400

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("api/v2/suggestions", use: indexV2)
        router.get("api/v1/suggestions", use: indexV1)
        router.delete("api/v1/suggestions/:id", use: dismiss)
    }

    /// `GET /api/v2/suggestions` (read:accounts): `Suggestion` entities, `limit` 40 (at most 80).
    @Sendable func indexV2(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (me, limit) = try await caller(request)
        let entities = try await AccountAccess(node: node).read { db -> [APISuggestion] in
            let suggested = try db.suggestions.forAccount(me.id, activeSince: Date() - Self.activeWindow, limit: limit)
            let accounts = try EntityRenderer(node: node, viewer: me, db: db).accounts(suggested.map(\.account))
            return zip(suggested, accounts).map { item, account in
                APISuggestion(source: APISuggestion.legacySource(of: item.sources), sources: item.sources, account: account)
            }
        }
        return APIResponse.json(entities)
    }

    /// `GET /api/v1/suggestions` (read:accounts): the same accounts, as a plain `Account` array.
    @Sendable func indexV1(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (me, limit) = try await caller(request)
        let entities = try await AccountAccess(node: node).read { db -> [APIAccount] in
            let suggested = try db.suggestions.forAccount(me.id, activeSince: Date() - Self.activeWindow, limit: limit)
            return try EntityRenderer(node: node, viewer: me, db: db).accounts(suggested.map(\.account))
        }
        return APIResponse.json(entities)
    }

    /// `DELETE /api/v1/suggestions/:account_id` (write:accounts): never suggest that account to
    /// the caller again. 404 for an unknown account; `{}` otherwise, also when repeated.
    @Sendable func dismiss(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:accounts")
        let target = try await AccountAccess(node: node).account(context)
        try await SuggestionService(node: node).dismiss(target.id, by: me)
        return APIResponse.empty()
    }

    private func caller(_ request: Request) async throws -> (Account, Int) {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:accounts")
        let params = try await APIParams.read(request)
        return (me, try params.int(.limit(default: 40, max: 80)))
    }
}
