import Foundation
import GRDB

/// An invite link: whoever has its code may sign up, even when registrations are closed, and
/// skips approval.
public struct Invite: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "invites"
    /// Row id.
    public var id: Int64?
    /// The secret part of `/invite/CODE`.
    public var code: String
    /// Who made it; nil when the operator made it from the shell.
    public var accountId: Int64?
    /// How many sign-ups it allows; nil for no limit.
    public var maxUses: Int?
    /// How many sign-ups used it.
    public var uses: Int = 0
    /// When it stops working; nil for never.
    public var expiresAt: Date?
    /// When it was made.
    public var createdAt: Date

    /// A new, unused invite.
    public init(code: String, accountId: Int64?, maxUses: Int?, expiresAt: Date?, at date: Date = Date()) {
        self.code = code
        self.accountId = accountId
        self.maxUses = maxUses
        self.expiresAt = expiresAt
        self.createdAt = date
    }

    /// Whether it can still be used at `now`.
    public func isUsable(at now: Date) -> Bool {
        (expiresAt.map { $0 > now } ?? true) && (maxUses.map { uses < $0 } ?? true)
    }

    /// Takes the row id GRDB assigned on insert.
    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// How a local account came to be: the reason given in approval mode, the invite used, and
/// whether it is approved yet.
public struct SignUpRequest: Record, Equatable {
    /// Table name.
    public static let databaseTableName = "sign_up_requests"
    /// The account.
    public var accountId: Int64
    /// Why the person wants to join (Mastodon's `invite_request`).
    public var reason: String
    /// The invite used, if any.
    public var inviteId: Int64?
    /// When a moderator approved it; nil while pending.
    public var approvedAt: Date?
    /// When the person signed up.
    public var createdAt: Date

    /// A request; pending unless `approvedAt` is given.
    public init(accountId: Int64, reason: String, inviteId: Int64?, approvedAt: Date?, at date: Date = Date()) {
        self.accountId = accountId
        self.reason = reason
        self.inviteId = inviteId
        self.approvedAt = approvedAt
        self.createdAt = date
    }
}
