import Foundation
import GRDB

// Mutes: the table `mutes`.

extension Transaction {
    /// Muted accounts.
    public var mutes: Mutes { Mutes(db: session) }
}

/// Muted accounts.
public struct Mutes { let db: SQLSession }

extension Mutes {
    /// Mutes (or changes the mute of) `mute.targetAccountId` for `mute.accountId`: a second
    /// mute replaces the first one's duration and notifications setting, as Mastodon's does.
    public func save(_ mute: Mute) throws {
        try db.execute(cached: """
            INSERT INTO mutes(id, account_id, target_account_id, hide_notifications, expires_at, created_at)
            VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(account_id, target_account_id) DO UPDATE SET
              hide_notifications = excluded.hide_notifications, expires_at = excluded.expires_at
            """, arguments: [mute.id, mute.accountId, mute.targetAccountId, mute.hideNotifications, mute.expiresAt, mute.createdAt])
    }

    /// Lifts `accountId`'s mute of `targetId`.
    /// - Returns: Whether a mute was deleted.
    @discardableResult
    public func remove(account accountId: Int64, target targetId: Int64) throws -> Bool {
        try Mute.filter(Column("account_id") == accountId && Column("target_account_id") == targetId).deleteAll(db) > 0
    }

    /// `accountId`'s mute of `targetId` if it still applies at `now`.
    public func active(account accountId: Int64, target targetId: Int64, now: Date = Date()) throws -> Mute? {
        try Mute.filter(Column("account_id") == accountId && Column("target_account_id") == targetId).fetchOne(db)
            .flatMap { $0.isActive(at: now) ? $0 : nil }
    }

    /// Whether `viewerId` mutes the author of `postId`, the author of the post it boosts, or an
    /// account it mentions (so the post stays off the viewer's streams, as off its timelines).
    public func hides(post postId: Int64, from viewerId: Int64, now: Date = Date()) throws -> Bool {
        let (notMuted, arguments) = Self.notMutedCondition("p", viewer: viewerId, now: now, mentions: true)
        return try Bool.fetchOne(db, sql: "SELECT NOT (\(notMuted)) FROM posts p WHERE p.id = ?", arguments: arguments + [postId]) ?? false
    }

    /// One page of the accounts `accountId` mutes (mutes still in force), newest mute first,
    /// each with its mute.
    public func mutedAccounts(by accountId: Int64, page: PageBounds, now: Date = Date()) throws -> [PageItem<(Account, Mute)>] {
        let (bounds, boundArguments) = page.condition("m.id")
        let rows = try Row.fetchAll(db, sql: """
            SELECT m.id AS mute_id, m.hide_notifications AS mute_hides, m.expires_at AS mute_expires, m.created_at AS mute_created, a.*
            FROM mutes m JOIN accounts a ON a.id = m.target_account_id
            WHERE m.account_id = ? AND (m.expires_at IS NULL OR m.expires_at > ?) AND \(bounds)
            ORDER BY \(page.order("m.id")) LIMIT ?
            """, arguments: [accountId, now] + StatementArguments(boundArguments) + [page.limit])
        return try page.newestFirst(rows).map { row in
            let account = try Account(row: row)
            let mute = Mute(id: row["mute_id"], accountId: accountId, targetAccountId: account.id, hideNotifications: row["mute_hides"],
                            expiresAt: row["mute_expires"], createdAt: row["mute_created"])
            return PageItem(cursor: mute.id, item: (account, mute))
        }
    }

    /// Deletes mutes that ended before `now` (they already stopped applying when read).
    /// - Returns: How many were deleted.
    @discardableResult
    public func deleteExpired(now: Date = Date()) throws -> Int {
        try Mute.filter(Column("expires_at") != nil && Column("expires_at") <= now).deleteAll(db)
    }

    /// An SQL condition on the posts table aliased `alias` that holds unless `viewerId` mutes
    /// (at `now`) the author, or, for a boost, the boosted post's author; with `mentions`, also
    /// unless the post (or the boosted one) mentions a muted account, as Mastodon's home feed.
    static func notMutedCondition(_ alias: String, viewer viewerId: Int64, now: Date, mentions: Bool)
        -> (sql: String, arguments: StatementArguments)
    {
        let p = alias
        let mentioned = mentions
            ? " OR EXISTS (SELECT 1 FROM mentions mm WHERE mm.post_id = COALESCE(\(p).reblog_of_id, \(p).id) AND mm.account_id = mu.target_account_id)"
            : ""
        let sql = """
            NOT EXISTS (SELECT 1 FROM mutes mu WHERE mu.account_id = ? AND (mu.expires_at IS NULL OR mu.expires_at > ?)
              AND (mu.target_account_id = \(p).account_id
                   OR mu.target_account_id = (SELECT mo.account_id FROM posts mo WHERE mo.id = \(p).reblog_of_id)\(mentioned)))
            """
        return (sql, [viewerId, now])
    }
}
