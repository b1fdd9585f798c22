import Foundation
import ServiceLifecycle
import Storage

/// Forgets de-duplication rows (`seen_activities`) older than `retention`, at start and then
/// hourly, so the table holds a month of ids rather than every id ever received. Senders stop
/// retrying within days, and handlers are idempotent should an old id come back. The same pass
/// drops the signing keys kept for deleted accounts once their last deliveries are done, mutes
/// that have ended, failed sign-ins past their back-off's memory and unused trusted browsers.
public struct SeenActivityPruner: Service {
    /// How long an activity id is remembered.
    public static let retention: TimeInterval = 30 * 86_400
    package let node: Node

    /// A pruner for `node`.
    public init(node: Node) { self.node = node }

    /// Prunes now and every hour until shutdown.
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await node.runScheduled("seen-activity-pruner", every: 3_600) { await prune() }
        }
    }

    /// One pass.
    /// - Parameter now: The current time.
    /// - Returns: How many rows were deleted.
    @discardableResult
    public func prune(now: Date = Date()) async -> Int {
        do {
            let removed = try await node.database.write { db in
                // Housekeeping of the same hourly kind: keys of deleted accounts whose last
                // deliveries are done are not kept a moment longer than needed.
                try db.accounts.forgetDepartedKeys()
                // Ended mutes already stopped applying when read; their rows go here.
                try db.mutes.deleteExpired(now: now)
                // Rate-limit windows counted in the database (several processes) last minutes.
                try db.coordination.pruneWindows(startedBefore: now.addingTimeInterval(-86_400))
                // Failed sign-ins are forgotten after a quiet spell, unused trusted browsers too.
                try db.signInFailures.prune(before: now.addingTimeInterval(-node.configuration.rateLimits.failedSignIns.forgetAfter), now: now)
                try db.trustedDevices.prune(unusedBefore: now.addingTimeInterval(-DeviceTrust.lifetime))
                return try db.inbox.pruneSeen(before: now.addingTimeInterval(-Self.retention))
            }
            if removed > 0 { node.logger.info("old activity ids forgotten", metadata: ["count": "\(removed)"]) }
            return removed
        } catch {
            node.logger.warning("pruning seen activities failed", metadata: ["error": "\(error)"])
            return 0
        }
    }
}
