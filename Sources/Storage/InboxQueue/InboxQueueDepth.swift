import Foundation
import GRDB

/// How many inbox items wait, by state, for the node's queue-depth gauges.
public struct InboxQueueDepth: Sendable, Equatable {
    /// Due now (new, or a retry whose time came), not parked.
    public var pending: Int
    /// Failed and waiting for their next attempt (`available_at` in the future), not parked.
    public var retrying: Int
    /// Taken out of processing, kept for the admin.
    public var parked: Int

    /// Creates a depth reading.
    public init(pending: Int, retrying: Int, parked: Int) {
        self.pending = pending
        self.retrying = retrying
        self.parked = parked
    }

    /// Counts the queue at `now`. Three index-only counts (`inbox_queue_ready`, the partial
    /// `inbox_queue_parked`): cheap enough to run on every scrape, whatever the payloads weigh.
    /// - Parameters:
    ///   - now: Items with `available_at` after it are retrying.
    ///   - db: An open database connection.
    /// - Returns: The depth by state.
    /// - Throws: A GRDB `DatabaseError`.
    public static func read(at now: Date, in db: SQLSession) throws -> InboxQueueDepth {
        let total = try Int.fetchOne(db, sql: "SELECT count(*) FROM inbox_queue") ?? 0
        let parked = try Int.fetchOne(db, sql: "SELECT count(*) FROM inbox_queue WHERE parked_at IS NOT NULL") ?? 0
        let retrying = try Int.fetchOne(
            db, sql: "SELECT count(*) FROM inbox_queue WHERE available_at > ? AND parked_at IS NULL", arguments: [now]) ?? 0
        return InboxQueueDepth(pending: max(0, total - parked - retrying), retrying: retrying, parked: parked)
    }
}
