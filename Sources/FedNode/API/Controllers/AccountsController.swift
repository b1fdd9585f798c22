import Core
import Foundation
import Hummingbird
import Storage

/// Profiles and their lists: `GET /api/v1/accounts/:id`, several by `id[]`, `/lookup`,
/// `/:id/statuses`, `/:id/followers` and `/:id/following`. All work anonymously; a token, when sent, needs
/// `read:accounts` (statuses: `read:statuses`).
struct AccountsController {
    let node: Node
    private var access: AccountAccess { AccountAccess(node: node) }

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("api/v1/accounts", use: index)
        router.get("api/v1/accounts/lookup", use: lookup)
        router.get("api/v1/accounts/:id", use: show)
        router.get("api/v1/accounts/:id/statuses", use: statuses)
        router.get("api/v1/accounts/:id/followers", use: followers)
        router.get("api/v1/accounts/:id/following", use: following)
    }

    /// `GET /api/v1/accounts/:id`: the `Account` (404 for unknown or deleted accounts). A remote
    /// account's figures are read again from its origin in the background when stale.
    @Sendable func show(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let viewer = try await access.viewer(of: request, scope: "read:accounts")
        let account = try await access.account(context)
        await node.remoteAccounts.refreshIfStale(account)
        return APIResponse.json(try await access.read { db in try EntityRenderer(node: node, viewer: viewer, db: db).account(account) })
    }

    /// The most accounts `GET /api/v1/accounts` returns at once (Mastodon's `DEFAULT_ACCOUNTS_LIMIT`).
    static let indexLimit = 40

    /// `GET /api/v1/accounts?id[]=` (Mastodon 4.3): the accounts with these ids, in the order
    /// asked; unknown ones and sign-ups still waiting for approval are left out. 422 for more
    /// than 40 ids.
    @Sendable func index(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let viewer = try await access.viewer(of: request, scope: "read:accounts")
        let ids = try await APIParams.read(request).ids("id")
        guard ids.count <= Self.indexLimit else { throw NodeError.validation("Validation failed: at most \(Self.indexLimit) ids") }
        return APIResponse.json(try await access.read { db -> [APIAccount] in
            let shown = try db.accounts.find(inOrder: ids).filter { try AccountAccess.isShown($0, in: db) }
            return try EntityRenderer(node: node, viewer: viewer, db: db).accounts(shown)
        })
    }

    /// `GET /api/v1/accounts/lookup?acct=`: a local `name` or `name@ourdomain`, or a remote
    /// `name@domain` already known here (no WebFinger: that is what search with `resolve` does).
    @Sendable func lookup(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let viewer = try await access.viewer(of: request, scope: "read:accounts")
        let params = try await APIParams.read(request)
        guard let handle = params.nonEmpty("acct").flatMap(AccountHandle.init) else { throw NodeError.notFound("Record not found") }
        let domain = handle.domain.flatMap { $0 == node.urls.domain ? nil : $0 }
        let entity = try await access.read { db -> APIAccount? in
            guard let account = try db.accounts.find(username: handle.username, domain: domain), try AccountAccess.isShown(account, in: db)
            else { return nil }
            return try EntityRenderer(node: node, viewer: viewer, db: db).account(account)
        }
        guard let entity else { throw NodeError.notFound("Record not found") }
        return APIResponse.json(entity)
    }

    /// `GET /api/v1/accounts/:id/statuses`: the account's posts and boosts the viewer may see,
    /// newest first, with `only_media`, `exclude_replies`, `exclude_reblogs`, `tagged`,
    /// `pinned` (the pinned posts, newest pin first, unpaged) and `max_id`/`since_id`/`min_id`/`limit`.
    @Sendable func statuses(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let viewer = try await access.viewer(of: request, scope: "read:statuses")
        let account = try await access.account(context)
        let params = try await APIParams.read(request)
        let page = try PageQuery(params)
        if params.bool("pinned") == true { return try await pinned(of: account, viewer: viewer, params: params) }
        let filter = AccountStatusesFilter(params: params)
        let (entities, ids) = try await access.read { db -> ([APIStatus], [Int64]) in
            let posts = try filter.posts(of: account.id, viewer: viewer?.id, page: page, in: db)
            let filters = try FilterSet.load(viewer: viewer, context: "account", db: db)
            return (filters.apply(to: try EntityRenderer(node: node, viewer: viewer, db: db).statuses(posts)), posts.map(\.id))
        }
        return APIResponse.json(entities, headers: PageQuery.headers(for: request, base: node.urls.base, ids: ids))
    }

    /// The account's pinned posts the viewer may see, newest pin first: a local account's
    /// pins, or those a remote account's server announced with `Add`. Not paged (at most
    /// `PinService.maxPins` for local accounts), so later pages are empty.
    private func pinned(of account: Account, viewer: Account?, params: APIParams) async throws -> Response {
        let paging = ["max_id", "min_id", "since_id"].contains { params.string($0) != nil }
        if paging { return APIResponse.json([APIStatus]()) }
        let entities = try await access.read { db -> [APIStatus] in
            let posts = try db.pins.pinnedPosts(of: account.id, viewer: viewer?.id, limit: 20)
            return try EntityRenderer(node: node, viewer: viewer, db: db).statuses(posts)
        }
        return APIResponse.json(entities)
    }

    /// `GET /api/v1/accounts/:id/followers`: accepted followers known here, newest follow
    /// first, paged by the follow's id. Empty for a viewer the account blocks.
    @Sendable func followers(_ request: Request, context: NodeRequestContext) async throws -> Response {
        try await relations(request, context) { db, account, page in try db.follows.followers(of: account, page: page) }
    }

    /// `GET /api/v1/accounts/:id/following`: accepted follows, newest first, paged by the
    /// follow's id. Empty for a viewer the account blocks.
    @Sendable func following(_ request: Request, context: NodeRequestContext) async throws -> Response {
        try await relations(request, context) { db, account, page in try db.follows.following(of: account, page: page) }
    }

    private func relations(
        _ request: Request, _ context: NodeRequestContext,
        _ relation: @Sendable @escaping (Transaction, _ account: Int64, PageBounds) throws -> [PageItem<Account>]
    ) async throws -> Response {
        let viewer = try await access.viewer(of: request, scope: "read:accounts")
        let account = try await access.account(context)
        if let viewer, try await access.read({ try Relationships.blocking(account.id, viewer.id, in: $0) }) {
            return APIResponse.json([APIAccount]())
        }
        return try await access.accountPage(request, viewer: viewer) { db, page in try relation(db, account.id, page) }
    }
}
