import Core
import Foundation
import Hummingbird
import Storage

/// `GET /api/v2/search` (accounts, hashtags, statuses) and `GET /api/v1/accounts/search`.
struct SearchController {
    let node: Node
    private var search: SearchService { SearchService(node: node) }

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("api/v2/search", use: searchAll)
        router.get("api/v1/accounts/search", use: searchAccounts)
    }

    /// `GET /api/v2/search`: `q` (400 without), `type` (`accounts`, `hashtags`, `statuses`;
    /// another type matches nothing, as in Mastodon), `resolve` (signed-in callers only),
    /// `following`, `account_id`, `limit` (20, at most 40) and `offset`. A token, when sent,
    /// needs `read:search`.
    @Sendable func searchAll(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let viewer = try await AccountAccess(node: node).viewer(of: request, scope: "read:search")
        let params = try await APIParams.read(request)
        let query = try Self.query(params, defaultLimit: 20, maxLimit: 40)
        let type = params.nonEmpty("type")
        func wants(_ kind: String) -> Bool { type == nil || type == kind }
        var (accounts, hashtags, posts): ([Account], [Hashtag], [Post]) = ([], [], [])
        if wants("accounts") { accounts = try await search.accounts(query, viewer: viewer) }
        if wants("hashtags") { hashtags = try await search.hashtags(query) }
        if wants("statuses") { posts = try await search.posts(query, viewer: viewer) }
        let found = (accounts, hashtags, posts)
        let results = try await AccountAccess(node: node).read { db in
            let renderer = EntityRenderer(node: node, viewer: viewer, db: db)
            return APISearchResults(accounts: try renderer.accounts(found.0), statuses: try renderer.statuses(found.2),
                                    hashtags: try found.1.map { try TagHistory.tag($0, urls: node.urls, viewer: viewer, in: db) })
        }
        return APIResponse.json(results)
    }

    /// `GET /api/v1/accounts/search`: accounts only; `q` (400 without), `limit` (40, at most
    /// 80), `offset`, `resolve`, `following`. A token, when sent, needs `read:accounts`.
    @Sendable func searchAccounts(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let viewer = try await AccountAccess(node: node).viewer(of: request, scope: "read:accounts")
        let params = try await APIParams.read(request)
        let accounts = try await search.accounts(try Self.query(params, defaultLimit: 40, maxLimit: 80), viewer: viewer)
        let entities = try await AccountAccess(node: node).read { db in try EntityRenderer(node: node, viewer: viewer, db: db).accounts(accounts) }
        return APIResponse.json(entities)
    }

    /// The search parameters.
    /// - Throws: `NodeError.badRequest` without `q`, `.validation` for an offset past
    ///   `IntParameter.searchOffset`.
    static func query(_ params: APIParams, defaultLimit: Int, maxLimit: Int) throws(NodeError) -> SearchService.Query {
        guard let text = params.nonEmpty("q") else { throw .badRequest("param is missing or the value is empty: q") }
        var query = SearchService.Query(text: text)
        query.limit = try params.int(.limit(default: defaultLimit, max: maxLimit))
        query.offset = try params.int(.searchOffset)
        query.resolve = params.bool("resolve") ?? false
        query.following = params.bool("following") ?? false
        query.accountId = try params.recordId("account_id")
        return query
    }
}
