import Core
import Foundation
import Hummingbird
import Storage

/// Muting: `POST /api/v1/accounts/:id/mute|unmute` and `GET /api/v1/mutes`
/// (docs.joinmastodon.org/methods/accounts#mute, /methods/mutes). A mute hides the account's
/// posts and boosts from the muter's timelines and, with `notifications`, its notifications;
/// it may end by itself after `duration` seconds. Mutes stay on this node.
struct MutesController {
    let node: Node
    private var access: AccountAccess { AccountAccess(node: node) }

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.post("api/v1/accounts/:id/mute", use: mute)
        router.post("api/v1/accounts/:id/unmute", use: unmute)
        router.get("api/v1/mutes", use: mutes)
    }

    /// `POST /api/v1/accounts/:id/mute` (write:mutes): `notifications` (default true) hides
    /// their notifications too; `duration` in seconds, 0 or absent for no end. Muting again
    /// replaces both. Answers the relationship.
    @Sendable func mute(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:mutes")
        let target = try await access.account(context)
        let params = try await APIParams.read(request)
        let duration = try params.int("duration", in: Int.min...Int.max, invalid: MuteService.invalidDuration)
        try await MuteService(node: node).mute(target, by: me, hideNotifications: params.bool("notifications") ?? true, duration: duration)
        return try await relationship(with: target, me: me)
    }

    /// `POST /api/v1/accounts/:id/unmute` (write:mutes): lifts the mute. Answers the relationship.
    @Sendable func unmute(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:mutes")
        let target = try await access.account(context)
        try await MuteService(node: node).unmute(target, by: me)
        return try await relationship(with: target, me: me)
    }

    /// `GET /api/v1/mutes` (read:mutes): accounts the caller mutes, newest mute first, paged by
    /// the mute's id; each with `mute_expires_at`.
    @Sendable func mutes(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:mutes")
        let page = try PageQuery(try await APIParams.read(request), defaultLimit: 40, maxLimit: 80).bounds
        let node = node
        let (entities, ids) = try await access.read { db -> ([APIMutedAccount], [Int64]) in
            let newest = try db.mutes.mutedAccounts(by: me.id, page: page)
            let accounts = try EntityRenderer(node: node, viewer: me, db: db).accounts(newest.map(\.item.0))
            let entities = zip(accounts, newest).map { entity, item in
                APIMutedAccount(account: entity, muteExpiresAt: item.item.1.expiresAt.map(Timestamps.iso8601))
            }
            return (entities, newest.map(\.cursor))
        }
        return APIResponse.json(entities, headers: PageQuery.headers(for: request, base: node.urls.base, ids: ids))
    }

    /// The caller's relationship with `target`, as the answer to a mute or unmute.
    private func relationship(with target: Account, me: Account) async throws(NodeError) -> Response {
        let node = node
        return APIResponse.json(try await StatusAccess.read(node) { db in
            try EntityRenderer(node: node, viewer: me, db: db).relationship(with: target.id)
        })
    }
}

/// An `Account` in the mutes list: the account entity with `mute_expires_at` (null for a mute
/// without end), as Mastodon renders it there.
struct APIMutedAccount: Encodable, Sendable {
    /// The muted account.
    var account: APIAccount
    /// When the mute ends, ISO 8601; `nil` encodes as null.
    var muteExpiresAt: String?

    private enum Keys: String, CodingKey { case muteExpiresAt }

    /// The account's fields, then `mute_expires_at` in the same object.
    func encode(to encoder: any Encoder) throws {
        try account.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(muteExpiresAt, forKey: .muteExpiresAt)
    }
}
