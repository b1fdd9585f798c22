import Activity
import Foundation
import GRDB

// Whom the node federates with: the tables `domain_blocks` (DomainBlockList, DomainBlocks) and
// `domain_allows` (DomainAllows), the federation mode kept in `node_settings`, and the policy
// read from them (FederationPolicy, FederationPolicyCache).

extension Transaction {
    /// Blocked domains.
    public var domainBlocks: DomainBlockList { DomainBlockList(db: session) }
}

/// Blocked domains.
public struct DomainBlockList { let db: SQLSession }

extension DomainBlockList {
    /// Whether `authority` (`host[:port]`, any letter case) is blocked, itself or through a
    /// parent domain.
    public func isBlocked(_ authority: String) throws -> Bool { try DomainBlocks.isBlocked(authority, in: db) }

    /// Whether the node blocks the domain of the account `accountId` (cached statement).
    public func blocksDomain(ofAccount accountId: Int64) throws -> Bool {
        try APIQuerySupport.cachedCount(db, "SELECT COUNT(*) FROM accounts a JOIN domain_blocks d ON d.domain = a.domain WHERE a.id = ?", accountId) > 0
    }
}

extension DomainBlockList {
    /// Blocks `domain` (and its subdomains); queued deliveries to it are dropped in the same
    /// transaction (trigger `domain_block_drops_deliveries`).
    /// - Returns: Whether it was not blocked before, and how many queued deliveries were dropped.
    public func add(_ domain: String, at date: Date) throws -> (added: Bool, droppedDeliveries: Int) {
        FederationPolicyCache.changed(in: db)
        let before = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM delivery_queue") ?? 0
        try DomainBlock(domain: HostAuthority.normalize(domain) ?? domain.lowercased(), createdAt: date).insert(db, onConflict: .ignore)
        let added = db.changesCount > 0
        let after = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM delivery_queue") ?? 0
        return (added, before - after)
    }

    /// Lifts the block of exactly `domain`. - Returns: Whether it was blocked.
    public func remove(_ domain: String) throws -> Bool {
        FederationPolicyCache.changed(in: db)
        try db.execute(cached: "DELETE FROM domain_blocks WHERE domain = ?", arguments: [domain.lowercased()])
        return db.changesCount > 0
    }

    /// Every domain block, alphabetically.
    public func all() throws -> [DomainBlock] { try DomainBlock.order(Column("domain")).fetchAll(db) }
}
