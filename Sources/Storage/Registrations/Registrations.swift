import Foundation
import GRDB

// Registrations: the tables `sign_up_requests` and `invites`.

extension Transaction {
    /// Sign-up requests (approval mode) and invite links.
    public var registrations: Registrations { Registrations(db: session) }
}

/// Sign-up requests (approval mode) and invite links.
public struct Registrations { let db: SQLSession }

extension Registrations {
    // MARK: Sign-up requests

    /// Records how `request.accountId` signed up (pending when not approved).
    public func record(_ request: SignUpRequest) throws { try request.insert(db) }

    /// How `accountId` signed up, when the node recorded it (accounts made before, or by the
    /// CLI, have no request).
    public func request(of accountId: Int64) throws -> SignUpRequest? { try SignUpRequest.fetchOne(db, key: accountId) }

    /// Whether `accountId` still waits for a moderator's approval.
    public func isPending(_ accountId: Int64) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT \(Self.pending("?"))"), arguments: [accountId]) ?? false
    }

    /// SQL: the account whose id is `account` (a column or `?`) waits for approval.
    static func pending(_ account: String) -> String {
        "EXISTS (SELECT 1 FROM sign_up_requests WHERE account_id = \(account) AND approved_at IS NULL)"
    }

    /// Approves the pending account `accountId`. - Returns: Whether it was pending.
    public func approve(_ accountId: Int64, at date: Date) throws -> Bool {
        try db.execute(cached: "UPDATE sign_up_requests SET approved_at = ? WHERE account_id = ? AND approved_at IS NULL",
                       arguments: [date, accountId])
        return db.changesCount > 0
    }

    /// How many accounts wait for approval.
    public func pendingCount() throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sign_up_requests WHERE approved_at IS NULL") ?? 0
    }

    // MARK: Invites

    /// Stores a new invite. - Returns: It, with its id.
    public func add(_ invite: Invite) throws -> Invite { try invite.inserted(db) }

    /// The invite with `code`, used up or not.
    public func invite(code: String) throws -> Invite? { try Invite.filter(Column("code") == code).fetchOne(db) }

    /// The invite with `id`.
    public func invite(id: Int64) throws -> Invite? { try Invite.fetchOne(db, key: id) }

    /// Every invite, newest first.
    public func invites(limit: Int = 1_000) throws -> [Invite] {
        try Invite.order(Column("id").desc).limit(limit).fetchAll(db)
    }

    /// Counts one use of the invite `id`, if it is still usable at `now` (one statement, so two
    /// sign-ups racing for the last use cannot both have it).
    /// - Returns: Whether the use was counted.
    public func use(invite id: Int64, at now: Date) throws -> Bool {
        try db.execute(cached: """
            UPDATE invites SET uses = uses + 1
            WHERE id = ? AND (max_uses IS NULL OR uses < max_uses) AND (expires_at IS NULL OR expires_at > ?)
            """, arguments: [id, now])
        return db.changesCount > 0
    }
}
