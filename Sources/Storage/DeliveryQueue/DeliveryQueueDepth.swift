import Foundation
import GRDB

/// How many deliveries wait, by state, for the node's queue-depth gauges.
public struct DeliveryQueueDepth: Sendable, Equatable {
    /// Due now, to a domain that is not marked unavailable.
    public var pending: Int
    /// Failed and waiting for their next attempt, to a domain not marked unavailable.
    public var retrying: Int
    /// Held because their domain is marked unavailable (probed hourly, dropped after a while).
    public var unavailable: Int
    /// Domains marked unavailable.
    public var unavailableDomains: Int

    /// Creates a depth reading.
    public init(pending: Int, retrying: Int, unavailable: Int, unavailableDomains: Int) {
        self.pending = pending
        self.retrying = retrying
        self.unavailable = unavailable
        self.unavailableDomains = unavailableDomains
    }

    /// Counts the queue at `now` with index scans (`delivery_queue_ready`,
    /// `delivery_queue_by_domain`); rows of unavailable domains are looked up by domain.
    /// - Parameters:
    ///   - now: Deliveries with `next_attempt_at` after it are retrying.
    ///   - db: An open database connection.
    /// - Returns: The depth by state.
    /// - Throws: A GRDB `DatabaseError`.
    public static func read(at now: Date, in db: SQLSession) throws -> DeliveryQueueDepth {
        let down = "SELECT domain FROM delivery_domains WHERE unavailable"
        let total = try Int.fetchOne(db, sql: "SELECT count(*) FROM delivery_queue") ?? 0
        let domains = try Int.fetchOne(db, sql: "SELECT count(*) FROM delivery_domains WHERE unavailable") ?? 0
        // Nearly always no domain is unavailable: then neither filter needs the domain list.
        let unavailable = try domains == 0 ? 0 : Int.fetchOne(db, sql: "SELECT count(*) FROM delivery_queue WHERE domain IN (\(down))") ?? 0
        let retrying = try Int.fetchOne(
            db,
            sql: domains == 0
                ? "SELECT count(*) FROM delivery_queue WHERE next_attempt_at > ?"
                : "SELECT count(*) FROM delivery_queue WHERE next_attempt_at > ? AND domain NOT IN (\(down))",
            arguments: [now]) ?? 0
        return DeliveryQueueDepth(
            pending: max(0, total - unavailable - retrying), retrying: retrying, unavailable: unavailable,
            unavailableDomains: domains)
    }
}
