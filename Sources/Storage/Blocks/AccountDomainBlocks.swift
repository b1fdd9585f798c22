import Foundation
import GRDB

extension Transaction {
    /// Domains each person hides (`/api/v1/domain_blocks`).
    public var accountDomainBlocks: AccountDomainBlocks { AccountDomainBlocks(db: session) }
}

/// Domains each person hides (`/api/v1/domain_blocks`).
public struct AccountDomainBlocks { let db: SQLSession }

extension AccountDomainBlocks {
    /// `accountId` hides `domain` (`host[:port]`, stored lowercased).
    /// - Returns: Whether it was not hidden before.
    @discardableResult
    public func add(account accountId: Int64, domain: String, at date: Date = Date()) throws -> Bool {
        try db.execute(cached: "INSERT OR IGNORE INTO account_domain_blocks(id, account_id, domain, created_at) VALUES (?, ?, ?, ?)",
                       arguments: [Snowflake.next(), accountId, domain.lowercased(), date])
        return db.changesCount > 0
    }

    /// `accountId` stops hiding `domain`.
    /// - Returns: Whether it was hidden.
    @discardableResult
    public func remove(account accountId: Int64, domain: String) throws -> Bool {
        try db.execute(cached: "DELETE FROM account_domain_blocks WHERE account_id = ? AND domain = ?", arguments: [accountId, domain])
        return db.changesCount > 0
    }

    /// One page of the domains `accountId` hides, newest first, each with its row's id.
    public func domains(of accountId: Int64, page: PageBounds) throws -> [PageItem<String>] {
        let (bounds, boundArguments) = page.condition("id")
        let rows = try Row.fetchAll(db, sql: """
            SELECT id, domain FROM account_domain_blocks WHERE account_id = ? AND \(bounds) ORDER BY \(page.order("id")) LIMIT ?
            """, arguments: [accountId] + StatementArguments(boundArguments) + [page.limit])
        return page.newestFirst(rows).map { PageItem(cursor: $0["id"], item: $0["domain"]) }
    }

    /// Whether `viewerId` hides the domain of the account `accountId` (cached statement).
    public func hidesDomain(ofAccount accountId: Int64, viewer viewerId: Int64) throws -> Bool {
        try APIQuerySupport.cachedCount(db, """
            SELECT COUNT(*) FROM accounts a JOIN account_domain_blocks d ON d.account_id = ? AND d.domain = a.domain WHERE a.id = ?
            """, viewerId, accountId) > 0
    }

    /// Whether `viewerId` hides the domain of the author of `postId` or of the post it boosts
    /// (so the post stays off the viewer's streams, as off its timelines).
    public func hides(post postId: Int64, from viewerId: Int64) throws -> Bool {
        let (shown, arguments) = Self.notHiddenCondition("p", viewer: viewerId)
        return try Bool.fetchOne(db, sql: "SELECT NOT (\(shown)) FROM posts p WHERE p.id = ?", arguments: arguments + [postId]) ?? false
    }

    /// The follows, either way and in any state, between `accountId` and accounts of `domain`.
    public func follows(of accountId: Int64, withDomain domain: String) throws -> [Follow] {
        try Follow.fetchAll(db, sql: """
            SELECT f.* FROM follows f JOIN accounts a ON a.id = CASE WHEN f.account_id = ?1 THEN f.target_account_id ELSE f.account_id END
            WHERE (f.account_id = ?1 OR f.target_account_id = ?1) AND a.domain = ?2 COLLATE NOCASE
            """, arguments: [accountId, domain])
    }

    /// Deletes `accountId`'s notifications caused by accounts of `domain` (Mastodon clears them).
    public func deleteNotifications(of accountId: Int64, fromDomain domain: String) throws {
        try db.execute(cached: """
            DELETE FROM notifications WHERE account_id = ?
              AND from_account_id IN (SELECT id FROM accounts WHERE domain = ? COLLATE NOCASE)
            """, arguments: [accountId, domain])
    }

    /// An SQL condition on the posts table aliased `alias` that holds unless `viewerId` hides
    /// the domain of the post's author or, for a boost, of the boosted post's author.
    static func notHiddenCondition(_ alias: String, viewer viewerId: Int64) -> (sql: String, arguments: StatementArguments) {
        let p = alias
        let sql = """
            NOT EXISTS (SELECT 1 FROM accounts ha JOIN account_domain_blocks hd ON hd.account_id = ? AND hd.domain = ha.domain
              WHERE ha.id = \(p).account_id OR ha.id = (SELECT ho.account_id FROM posts ho WHERE ho.id = \(p).reblog_of_id))
            """
        return (sql, [viewerId])
    }

    /// An SQL condition on the notifications table aliased `n` that holds unless `viewerId`
    /// hides the sender's domain and does not follow the sender (Mastodon's `NotifyService`).
    static func notificationShownCondition(viewer viewerId: Int64) -> (sql: String, arguments: StatementArguments) {
        let sql = """
            NOT EXISTS (SELECT 1 FROM accounts hna JOIN account_domain_blocks hnd ON hnd.account_id = ? AND hnd.domain = hna.domain
              WHERE hna.id = n.from_account_id AND NOT EXISTS (SELECT 1 FROM follows hnf WHERE hnf.account_id = ?
                AND hnf.target_account_id = n.from_account_id AND hnf.state = 'accepted'))
            """
        return (sql, [viewerId, viewerId])
    }
}
