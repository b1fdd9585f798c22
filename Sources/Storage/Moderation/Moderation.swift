import Activity
import Foundation
import GRDB

// Moderation: the tables `account_roles`, `reports`, `instance_rules`, `instance_domain_blocks`,
// `account_moderation` (Moderation+Accounts) and `report_notes` (ReportNotes).

extension Transaction {
    /// Staff roles, reports and the instance's domain blocks.
    public var moderation: Moderation { Moderation(db: session) }
}

/// Staff roles, reports and the instance's domain blocks.
public struct Moderation { let db: SQLSession }

extension Moderation {
    // MARK: Roles

    /// The staff role of `accountId` (`user` when it has none).
    public func role(of accountId: Int64) throws -> StaffRole {
        try String.fetchOne(db, sql: "SELECT role FROM account_roles WHERE account_id = ?", arguments: [accountId])
            .flatMap(StaffRole.init(rawValue:)) ?? .user
    }

    /// Roles of several accounts at once (accounts without a role are left out).
    public func roles(of accountIds: [Int64]) throws -> [Int64: StaffRole] {
        let sql = "SELECT account_id, role FROM account_roles WHERE account_id IN (\(BatchQuery.ids))"
        let roles = try BatchQuery.rows(db, accountIds, sql: sql) { row in
            StaffRole(rawValue: row["role"]).map { (row["account_id"] as Int64, $0) }
        }
        return Dictionary(roles.compactMap { $0 }, uniquingKeysWith: { first, _ in first })
    }

    /// Gives `accountId` the role `role` (`user` removes any staff role).
    public func setRole(_ role: StaffRole, of accountId: Int64) throws {
        if role == .user {
            try db.execute(cached: "DELETE FROM account_roles WHERE account_id = ?", arguments: [accountId])
        } else {
            try db.execute(cached: """
                INSERT INTO account_roles (account_id, role) VALUES (?, ?)
                ON CONFLICT(account_id) DO UPDATE SET role = excluded.role
                """, arguments: [accountId, role.rawValue])
        }
    }

    /// The owner's account id, if the node has one.
    public func ownerId() throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT account_id FROM account_roles WHERE role = 'owner' LIMIT 1")
    }

    /// Whether any account is the owner.
    public func hasOwner() throws -> Bool {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM account_roles WHERE role = 'owner'") ?? 0 > 0
    }

    // MARK: Reports

    /// Stores a new report; a `Flag` already stored (same `uri`) is left as it is.
    /// - Returns: The stored report, or nil when it was a repeat.
    public func addReport(_ report: Report) throws -> Report? {
        let stored = try report.inserted(db, onConflict: .ignore)
        return db.changesCount > 0 ? stored : nil
    }

    /// The report with `id`.
    public func report(id: Int64) throws -> Report? { try Report.fetchOne(db, key: id) }

    /// Saves a changed report (its `updatedAt` set to `date`).
    public func save(_ report: Report, at date: Date) throws {
        var report = report
        report.updatedAt = date
        try report.update(db)
    }

    /// One page of reports, newest first: open ones unless `resolved`; optionally only those
    /// made by `accountId` or about `targetAccountId`.
    public func reports(resolved: Bool, by accountId: Int64?, about targetAccountId: Int64?, page: PageBounds) throws -> [Report] {
        let (bounds, boundArguments) = page.condition("id")
        var conditions = [resolved ? "action_taken_at IS NOT NULL" : "action_taken_at IS NULL", bounds]
        var arguments = StatementArguments(boundArguments)
        if let accountId { conditions.append("account_id = ?"); arguments += [accountId] }
        if let targetAccountId { conditions.append("target_account_id = ?"); arguments += [targetAccountId] }
        let rows = try Report.fetchAll(db, sql: """
            SELECT * FROM reports WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(page.order("id")) LIMIT ?
            """, arguments: arguments + [page.limit])
        return page.newestFirst(rows)
    }

    /// How many reports are still open.
    public func openReportCount() throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM reports WHERE action_taken_at IS NULL") ?? 0
    }

    // MARK: Rules

    /// The instance rules, in order.
    public func rules() throws -> [InstanceRule] {
        try InstanceRule.order(Column("position"), Column("id")).fetchAll(db)
    }

    /// Adds a rule after the others. - Returns: The stored rule.
    public func addRule(text: String, hint: String, at date: Date) throws -> InstanceRule {
        let last = try Int.fetchOne(db, sql: "SELECT MAX(position) FROM instance_rules") ?? 0
        return try InstanceRule(text: text, hint: hint, position: last + 1, at: date).inserted(db)
    }

    /// Removes the rule `id`. - Returns: Whether it existed.
    public func removeRule(id: Int64) throws -> Bool { try InstanceRule.deleteOne(db, key: id) }

    // MARK: Domain blocks

    /// Every instance domain block, alphabetically.
    public func domainBlocks() throws -> [InstanceDomainBlock] {
        try InstanceDomainBlock.order(Column("domain")).fetchAll(db)
    }

    /// The instance domain block with `id`.
    public func domainBlock(id: Int64) throws -> InstanceDomainBlock? { try InstanceDomainBlock.fetchOne(db, key: id) }

    /// The block of exactly `domain`, if any.
    public func domainBlock(domain: String) throws -> InstanceDomainBlock? {
        try InstanceDomainBlock.filter(Column("domain") == domain.lowercased()).fetchOne(db)
    }

    /// The blocks of `authority` itself and of its parent domains (`a.b.example` is covered by
    /// a block of `b.example`).
    public func domainBlocks(covering authority: String) throws -> [InstanceDomainBlock] {
        let host = authority.lowercased()
        return try InstanceDomainBlock.fetchAll(db, sql: """
            SELECT * FROM instance_domain_blocks WHERE domain = ? OR ? LIKE '%.' || domain
            """, arguments: [host, host])
    }

    /// Stores `block` (new or changed) and applies its severity: a suspension is enforced on
    /// every federation path (`domain_blocks`, whose trigger drops queued deliveries), other
    /// severities are not.
    /// - Returns: The stored block and how many queued deliveries were dropped.
    public func saveDomainBlock(_ block: InstanceDomainBlock) throws -> (block: InstanceDomainBlock, droppedDeliveries: Int) {
        var block = block
        block.domain = HostAuthority.normalize(block.domain) ?? block.domain.lowercased()
        if block.id == nil { block = try block.inserted(db) } else { try block.update(db) }
        var dropped = 0
        if block.severity == "suspend" {
            dropped = try DomainBlockList(db: db).add(block.domain, at: block.createdAt).droppedDeliveries
        } else {
            _ = try DomainBlockList(db: db).remove(block.domain)
        }
        return (block, dropped)
    }

    /// Lifts `block` entirely. - Returns: Whether it existed.
    public func deleteDomainBlock(_ block: InstanceDomainBlock) throws -> Bool {
        let existed = try block.delete(db)
        _ = try DomainBlockList(db: db).remove(block.domain)
        return existed
    }

    /// Deletes what the node stored of the accounts of `domain` and its subdomains: their
    /// posts, follows both ways, likes, notifications; the accounts stay as husks, so ids in
    /// reports still resolve. A suspension's purge, as Mastodon does it.
    /// - Returns: How many accounts were purged.
    public func purgeDomain(_ domain: String) throws -> Int {
        let host = domain.lowercased()
        let ids = try Int64.fetchAll(db, sql: "SELECT id FROM accounts WHERE domain = ? OR domain LIKE '%.' || ?", arguments: [host, host])
        for id in ids { try purge(account: id) }
        return ids.count
    }
}
