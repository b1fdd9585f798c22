import Core
import Foundation
import Hummingbird
import Storage

/// Following and blocking: `POST /api/v1/accounts/:id/follow|unfollow|block|unblock`,
/// private notes (`POST /api/v1/accounts/:id/note`), `GET /api/v1/accounts/relationships`,
/// `GET /api/v1/accounts/familiar_followers` and `GET /api/v1/blocks`.
struct RelationshipsController {
    let node: Node
    private var access: AccountAccess { AccountAccess(node: node) }

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.post("api/v1/accounts/:id/follow", use: follow)
        router.post("api/v1/accounts/:id/unfollow", use: unfollow)
        router.post("api/v1/accounts/:id/block", use: block)
        router.post("api/v1/accounts/:id/unblock", use: unblock)
        router.post("api/v1/accounts/:id/note", use: note)
        router.get("api/v1/accounts/relationships", use: relationships)
        router.get("api/v1/accounts/familiar_followers", use: familiarFollowers)
        router.get("api/v1/blocks", use: blocks)
    }

    /// `POST /api/v1/accounts/:id/follow` (`write:follows`): follows at once, or asks
    /// (`requested: true`) when the account is locked or on another node, until accepted.
    /// 403 when either blocks the other.
    @Sendable func follow(_ request: Request, context: NodeRequestContext) async throws -> Response {
        try await act(request, context, scope: "write:follows") { target, me in try await node.interactions.follow(target, by: me) }
    }

    /// `POST /api/v1/accounts/:id/unfollow` (`write:follows`): stops following or withdraws
    /// the request.
    @Sendable func unfollow(_ request: Request, context: NodeRequestContext) async throws -> Response {
        try await act(request, context, scope: "write:follows") { target, me in try await node.interactions.unfollow(target, by: me) }
    }

    /// `POST /api/v1/accounts/:id/block` (`write:blocks`): blocks; follows both ways end.
    @Sendable func block(_ request: Request, context: NodeRequestContext) async throws -> Response {
        try await act(request, context, scope: "write:blocks") { target, me in try await node.interactions.block(target, by: me) }
    }

    /// `POST /api/v1/accounts/:id/unblock` (`write:blocks`).
    @Sendable func unblock(_ request: Request, context: NodeRequestContext) async throws -> Response {
        try await act(request, context, scope: "write:blocks") { target, me in try await node.interactions.unblock(target, by: me) }
    }

    /// `POST /api/v1/accounts/:id/note` (`write:accounts`): sets the caller's private note about
    /// the account (`comment`; empty or absent removes it), which only the caller sees, in
    /// the relationship's `note`. 422 for a note over 2,000 characters.
    @Sendable func note(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:accounts")
        let target = try await access.account(context)
        try await AccountNoteService(node: node).set(try await APIParams.read(request).string("comment") ?? "", about: target, by: me)
        return APIResponse.json(try await access.read { db in try EntityRenderer(node: node, viewer: me, db: db).relationship(with: target.id) })
    }

    /// `GET /api/v1/accounts/relationships?id[]=` (`read:follows`): one `Relationship` per
    /// known id, in the order asked; unknown ids are left out.
    @Sendable func relationships(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:follows")
        let params = try await APIParams.read(request)
        let ids = params.ids("id")
        let entities = try await access.read { db in
            let renderer = EntityRenderer(node: node, viewer: me, db: db)
            return try ids.prefix(100).filter { try db.accounts.exists(id: $0) }.map { try renderer.relationship(with: $0) }
        }
        return APIResponse.json(entities)
    }

    /// The most accounts `familiar_followers` answers for.
    static let familiarAccountsLimit = 40
    /// The most familiar followers it names for each.
    static let familiarFollowersLimit = 80
    /// Largest JSON body read on that GET (40 ids fit in far less).
    static let familiarBodyLimit = 64 * 1024

    /// `GET /api/v1/accounts/familiar_followers?id[]=` (`read:follows`): for each known account
    /// asked (the first 40), `{"id", "accounts"}` with the accounts the caller follows that
    /// follow it too (at most 80, the most recently followed first), as profiles show
    /// "followed by". None for an account in a block relation with the caller, whose
    /// followers the caller is not shown either.
    @Sendable func familiarFollowers(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:follows")
        // Mastodon.py sends the ids as a JSON body on this GET.
        let params = try await APIParams.read(request, limit: Self.familiarBodyLimit, jsonOnGet: true)
        let ids = params.ids("id").prefix(Self.familiarAccountsLimit)
        let entities = try await access.read { db -> [APIFamiliarFollowers] in
            let known = try ids.filter { try db.accounts.exists(id: $0) }
            let found = try known.map { id -> [Account] in
                if try Relationships.blocks(id, me.id, in: db) { return [] }
                return try db.follows.familiarFollowers(of: id, viewer: me.id, limit: Self.familiarFollowersLimit)
            }
            // Each account rendered once, however many of the asked accounts it follows.
            var unique: [Int64: Account] = [:]
            for account in found.joined() { unique[account.id] = account }
            let distinct = Array(unique.values)
            let entities = try EntityRenderer(node: node, viewer: me, db: db).accounts(distinct)
            let rendered = Dictionary(uniqueKeysWithValues: zip(distinct.map(\.id), entities))
            return zip(known, found).map { id, accounts in
                APIFamiliarFollowers(id: String(id), accounts: accounts.compactMap { rendered[$0.id] })
            }
        }
        return APIResponse.json(entities)
    }

    /// `GET /api/v1/blocks` (`read:blocks`): accounts the caller blocks, newest block first,
    /// paged by the block's id.
    @Sendable func blocks(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:blocks")
        return try await access.accountPage(request, viewer: me) { db, page in try db.blocks.blockedAccounts(by: me.id, page: page) }
    }

    /// Authenticates with `scope`, finds the target, runs `action`, answers the relationship.
    private func act(_ request: Request, _ context: NodeRequestContext, scope: String,
                     _ action: (Account, Account) async throws -> Void) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: scope)
        let target = try await access.account(context)
        try await action(target, me)
        let entity = try await access.read { db in try EntityRenderer(node: node, viewer: me, db: db).relationship(with: target.id) }
        return APIResponse.json(entity)
    }
}
