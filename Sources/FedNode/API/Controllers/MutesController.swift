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

    /// The longest `duration` accepted (100 years; 0 means until unmuted).
    static let maxDuration = 100 * 365 * 24 * 3600

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
        guard target.id != me.id else { throw NodeError.validation("Validation failed: You cannot mute yourself") }
        let expiresAt = try Self.expiry(params)
        let mute = Mute(accountId: me.id, targetAccountId: target.id, hideNotifications: params.bool("notifications") ?? true,
                        expiresAt: expiresAt)
        return try await relationship(with: target, me: me) { db in try db.mutes.save(mute) }
    }

    /// `POST /api/v1/accounts/:id/unmute` (write:mutes): lifts the mute. Answers the relationship.
    @Sendable func unmute(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:mutes")
        let target = try await access.account(context)
        return try await relationship(with: target, me: me) { db in try db.mutes.remove(account: me.id, target: target.id) }
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

    /// When a mute asked with `params` ends: `nil` for `duration` 0 or absent.
    /// - Throws: `NodeError.validation` for a duration that is not a whole number of seconds
    ///   in 0...`maxDuration`.
    static func expiry(_ params: APIParams, now: Date = Date()) throws(NodeError) -> Date? {
        let seconds = try params.int("duration", in: 0...maxDuration,
                                     invalid: "Validation failed: Duration must be a number of seconds from 0 to \(maxDuration)")
        guard let seconds, seconds > 0 else { return nil }
        return now.addingTimeInterval(TimeInterval(seconds))
    }

    private func relationship(with target: Account, me: Account, _ change: @Sendable @escaping (Transaction) throws -> Void)
        async throws(NodeError) -> Response
    {
        let node = node
        do {
            let entity = try await node.database.write { db in
                try change(db)
                return try EntityRenderer(node: node, viewer: me, db: db).relationship(with: target.id)
            }
            return APIResponse.json(entity)
        } catch let error as NodeError { throw error } catch { throw .internal("mute write: \(error)") }
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
