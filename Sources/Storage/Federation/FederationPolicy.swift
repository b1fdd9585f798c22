import Foundation
import GRDB

/// The one decision "does the node federate with this domain": not when a block covers it, and
/// in allow-list mode not unless an allow covers it. Every federation path (inbox, fetches,
/// deliveries) asks it through `DomainBlocks.isBlocked` or `federates(with:)`.
public struct FederationPolicy: Sendable {
    /// The `node_settings` key of the mode.
    static let modeKey = "federation_mode"
    /// Blocked domains, lowercased.
    public let blocked: Set<String>
    /// Allowed domains, lowercased; nil in block-list mode.
    public let allowed: Set<String>?

    /// The policy in force, read once for checking many domains.
    public static func load(in db: SQLSession) throws -> FederationPolicy {
        var allowed: Set<String>?
        if try mode(in: db) == .allowlist {
            allowed = Set(try String.fetchAll(db, sql: "SELECT lower(domain) FROM domain_allows"))
            // The node's own domain always is (as `isAllowed` says).
            if let own = try NodeSettings.value("domain", in: db) { allowed?.insert(own.lowercased()) }
        }
        return FederationPolicy(blocked: try DomainBlocks.all(in: db), allowed: allowed)
    }

    /// Whether the node federates with `authority` (`host[:port]`).
    public func federates(with authority: String) -> Bool {
        if DomainBlocks.covers(blocked, authority) { return false }
        guard let allowed else { return true }
        return DomainBlocks.candidates(for: authority).contains(where: allowed.contains)
    }

    /// The stored mode (block-list when never set).
    public static func mode(in db: SQLSession) throws -> FederationMode {
        try NodeSettings.value(modeKey, in: db).flatMap(FederationMode.init(rawValue:)) ?? .blocklist
    }

    /// Whether an allow covers `authority`, itself or through a parent domain; the node's own
    /// domain always is.
    static func isAllowed(_ authority: String, in db: SQLSession) throws -> Bool {
        let keys = DomainBlocks.candidates(for: authority)
        if let own = try NodeSettings.value("domain", in: db), authority.lowercased() == own.lowercased() { return true }
        return try !keys.isEmpty && DomainAllow.filter(keys.contains(Column("domain"))).fetchCount(db) > 0
    }

    /// Drops the queued deliveries to domains the node no longer federates with (after the
    /// mode changed to allow-list or an allow was lifted; blocks drop theirs by trigger).
    /// - Returns: How many were dropped.
    static func dropUnfederatedDeliveries(in db: SQLSession) throws -> Int {
        let policy = try load(in: db)
        let domains = try String.fetchAll(db, sql: "SELECT DISTINCT domain FROM delivery_queue").filter { !policy.federates(with: $0) }
        guard !domains.isEmpty else { return 0 }
        try db.execute(cached: "DELETE FROM delivery_queue WHERE domain IN (\(BatchQuery.strings))",
                       arguments: [BatchQuery.json(domains)])
        return db.changesCount
    }
}
