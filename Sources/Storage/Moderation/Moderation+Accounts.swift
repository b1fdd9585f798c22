import Foundation
import GRDB

/// What moderators did to an account (each a date while in force).
public struct AccountModeration: Record, Equatable {
    /// Table name.
    public static let databaseTableName = "account_moderation"
    /// The account.
    public var accountId: Int64
    /// Suspended: a local account cannot sign in and its actor answers 410; its content is hidden.
    public var suspendedAt: Date?
    /// Silenced: left out of public timelines except for its followers.
    public var silencedAt: Date?
    /// Its media is marked sensitive.
    public var sensitizedAt: Date?
    /// Sign-in disabled (local accounts).
    public var disabledAt: Date?

    /// No measure in force.
    public init(accountId: Int64) { self.accountId = accountId }

    /// Whether no measure is in force.
    public var isClear: Bool { suspendedAt == nil && silencedAt == nil && sensitizedAt == nil && disabledAt == nil }
}

/// Which accounts a moderator lists.
public struct AccountListFilter: Sendable, Equatable {
    /// `true`: local only; `false`: remote only; nil: both.
    public var local: Bool?
    /// Only accounts of this domain.
    public var domain: String?
    /// `active`, `pending` (waiting for approval), `disabled`, `silenced`, `suspended`, `sensitized`, or nil for all.
    public var status: String?
    /// Only staff members.
    public var staffOnly = false
    /// Username prefix.
    public var username: String?
    /// Display name substring.
    public var displayName: String?
    /// Email substring (local accounts).
    public var email: String?

    /// Lists every account.
    public init() {}
}

extension Moderation {
    /// The measures in force on `accountId`.
    public func measures(of accountId: Int64) throws -> AccountModeration {
        try AccountModeration.fetchOne(db, key: accountId) ?? AccountModeration(accountId: accountId)
    }

    /// Stores the measures of an account (the row goes when none is left).
    public func save(_ measures: AccountModeration) throws {
        if measures.isClear { _ = try AccountModeration.deleteOne(db, key: measures.accountId) } else { try measures.save(db) }
    }

    /// Whether `accountId` may not use the node: suspended, disabled, or still pending approval.
    public func isLockedOut(_ accountId: Int64) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT \(Self.suspendedOrDisabled("?")) OR \(Registrations.pending("?"))"),
                          arguments: [accountId, accountId]) ?? false
    }

    /// SQL: the account whose id is `account` (a column or `?`) is suspended or disabled.
    static func suspendedOrDisabled(_ account: String) -> String {
        "EXISTS (SELECT 1 FROM account_moderation WHERE account_id = \(account) AND (suspended_at IS NOT NULL OR disabled_at IS NOT NULL))"
    }

    /// SQL: the account whose id is `account` (a column or `?`) is suspended.
    static func suspended(_ account: String) -> String {
        "EXISTS (SELECT 1 FROM account_moderation WHERE account_id = \(account) AND suspended_at IS NOT NULL)"
    }

    /// Whether `accountId` is suspended.
    public func isSuspended(_ accountId: Int64) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT \(Self.suspended("?"))"), arguments: [accountId]) ?? false
    }

    /// Deletes what the node stored of a remote account: its posts, follows both ways, likes
    /// and the notifications it caused (a suspension's purge; the account row stays).
    public func purge(account id: Int64) throws {
        try db.execute(cached: "DELETE FROM posts WHERE account_id = ?", arguments: [id])
        try db.execute(cached: "DELETE FROM follows WHERE account_id = ? OR target_account_id = ?", arguments: [id, id])
        try db.execute(cached: "DELETE FROM likes WHERE account_id = ?", arguments: [id])
        try db.execute(cached: "DELETE FROM notifications WHERE from_account_id = ?", arguments: [id])
    }

    /// One page of accounts for moderators, newest first, by account id.
    public func accounts(_ filter: AccountListFilter, page: PageBounds) throws -> [Account] {
        let (bounds, boundArguments) = page.condition("a.id")
        var conditions = [bounds]
        var arguments = StatementArguments(boundArguments)
        if let local = filter.local { conditions.append(local ? "a.domain IS NULL" : "a.domain IS NOT NULL") }
        if let domain = filter.domain { conditions.append("a.domain = ?"); arguments += [domain.lowercased()] }
        if let username = filter.username { conditions.append("a.username LIKE ? ESCAPE '\\\\'"); arguments += [Self.like(username) + "%"] }
        if let name = filter.displayName { conditions.append("a.display_name LIKE ? ESCAPE '\\\\'"); arguments += ["%" + Self.like(name) + "%"] }
        if let email = filter.email {
            conditions.append("EXISTS (SELECT 1 FROM credentials c WHERE c.account_id = a.id AND c.email LIKE ? ESCAPE '\\\\')")
            arguments += ["%" + Self.like(email) + "%"]
        }
        if filter.staffOnly { conditions.append("EXISTS (SELECT 1 FROM account_roles r WHERE r.account_id = a.id)") }
        if let status = filter.status { conditions.append(Self.statusCondition(status)) }
        let rows = try Account.fetchAll(db, sql: """
            SELECT a.* FROM accounts a LEFT JOIN account_moderation m ON m.account_id = a.id
            WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(page.order("a.id")) LIMIT ?
            """, arguments: arguments + [page.limit])
        return page.newestFirst(rows)
    }

    private static func statusCondition(_ status: String) -> String {
        switch status {
        case "suspended": "m.suspended_at IS NOT NULL"
        case "silenced": "m.silenced_at IS NOT NULL"
        case "disabled": "m.disabled_at IS NOT NULL"
        case "sensitized": "m.sensitized_at IS NOT NULL"
        case "pending": "EXISTS (SELECT 1 FROM sign_up_requests s WHERE s.account_id = a.id AND s.approved_at IS NULL)"
        default: "m.suspended_at IS NULL AND m.disabled_at IS NULL AND NOT EXISTS (SELECT 1 FROM sign_up_requests s WHERE s.account_id = a.id AND s.approved_at IS NULL)"
        }
    }

    /// `text` with LIKE's wildcards escaped.
    private static func like(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
    }
}
