import Foundation
import GRDB

extension Transaction {
    /// The allow list of allow-list federation, and the federation mode.
    public var domainAllows: DomainAllows { DomainAllows(db: session) }
}

/// The allow list of allow-list federation, and the federation mode.
public struct DomainAllows { let db: SQLSession }

extension DomainAllows {
    /// The federation mode in force.
    public func mode() throws -> FederationMode { try FederationPolicy.mode(in: db) }

    /// Sets the federation mode; queued deliveries to domains no longer federated with are
    /// dropped. - Returns: How many were dropped.
    @discardableResult
    public func setMode(_ mode: FederationMode) throws -> Int {
        try NodeSettings.set(FederationPolicy.modeKey, to: mode.rawValue, in: db)
        FederationPolicyCache.changed(in: db)
        return try FederationPolicy.dropUnfederatedDeliveries(in: db)
    }

    /// Every allowed domain, by id (oldest first).
    public func all() throws -> [DomainAllow] { try DomainAllow.order(Column("id")).fetchAll(db) }

    /// One page of allowed domains, newest first.
    public func page(_ page: PageBounds) throws -> [DomainAllow] {
        let (bounds, arguments) = page.condition("id")
        let rows = try DomainAllow.fetchAll(db, sql: "SELECT * FROM domain_allows WHERE \(bounds) ORDER BY \(page.order("id")) LIMIT ?",
                                            arguments: StatementArguments(arguments) + [page.limit])
        return page.newestFirst(rows)
    }

    /// The allow with `id`.
    public func find(id: Int64) throws -> DomainAllow? { try DomainAllow.fetchOne(db, key: id) }

    /// The allow of exactly `domain`.
    public func find(domain: String) throws -> DomainAllow? {
        try DomainAllow.filter(Column("domain") == domain.lowercased()).fetchOne(db)
    }

    /// Allows `domain` (and its subdomains). - Returns: The allow, new or existing.
    public func add(_ domain: String, at date: Date) throws -> DomainAllow {
        if let existing = try find(domain: domain) { return existing }
        FederationPolicyCache.changed(in: db)
        return try DomainAllow(domain: domain, at: date).inserted(db)
    }

    /// Lifts the allow `allow`; in allow-list mode its queued deliveries are dropped.
    /// - Returns: Whether it existed.
    public func remove(_ allow: DomainAllow) throws -> Bool {
        let existed = try allow.delete(db)
        FederationPolicyCache.changed(in: db)
        if existed { _ = try FederationPolicy.dropUnfederatedDeliveries(in: db) }
        return existed
    }

    /// Whether the node federates with `authority` (`host[:port]`): no block covers it and, in
    /// allow-list mode, an allow does.
    public func federates(with authority: String) throws -> Bool { try !DomainBlocks.isBlocked(authority, in: db) }
}
