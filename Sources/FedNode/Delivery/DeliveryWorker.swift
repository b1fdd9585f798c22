import Foundation
import Logging
import ServiceLifecycle
import Signatures
import Storage

/// Sends the queued outbound activities: each due row of `delivery_queue` is signed with its
/// account's key (draft-cavage-12, as Mastodon signs), POSTed to its inbox through libcurl with
/// many requests in flight, and then deleted, rescheduled or given up as `RetryPolicy` decides.
///
/// Everything lives in SQLite, so a restarted node picks up where the last one stopped. Runs as a
/// `Service` under the application's service group; tests call `deliverDue()` directly.
public struct DeliveryWorker: Service {
    /// The node whose queue this worker drains.
    public let node: Node
    /// The clock every decision reads (injected by tests to skip days ahead).
    let now: @Sendable () -> Date
    /// The retry and domain-health rules.
    let policy: RetryPolicy
    /// How many deliveries one pass takes from the queue.
    let batchSize = 64
    /// How many requests are in flight at once.
    let maxInFlight = 16
    /// How many unavailable domains one pass probes at most.
    let maxProbes = 16
    /// How long the worker sleeps when nothing is due and nothing is queued meanwhile.
    let pollInterval: Duration
    /// Parsed signing keys, per account.
    let signers: DeliverySigners

    /// Creates a worker for `node`.
    /// - Parameters:
    ///   - node: The node: database, HTTP client, delivery signal, logger.
    ///   - now: The clock; the system clock unless a test injects another.
    ///   - policy: The retry rules; FedNode's defaults unless given.
    ///   - pollInterval: The longest sleep between passes when not notified; 5 seconds.
    public init(
        node: Node, now: @escaping @Sendable () -> Date = { Date() }, policy: RetryPolicy = RetryPolicy(),
        pollInterval: Duration = .seconds(5)
    ) {
        self.node = node
        self.now = now
        self.policy = policy
        self.pollInterval = pollInterval
        self.signers = DeliverySigners(database: node.database, logger: node.logger)
    }

    /// Delivers until the task is cancelled or the service group shuts down gracefully. Sleeps
    /// between passes until `node.deliverySignal` is notified or `pollInterval` passes; a full
    /// batch is followed by another pass straight away. On graceful shutdown the requests in
    /// flight finish and nothing new starts; what is left stays queued for the next start.
    public func run() async throws {
        node.logger.info("delivery worker started")
        let signal = node.deliverySignal
        await withGracefulShutdownHandler {
            while !Task.isCancelled, !Task.isShuttingDownGracefully {
                let summary = await deliverDue()
                if summary.moreDue { continue }
                await signal.wait(timeout: pollInterval)
            }
        } onGracefulShutdown: {
            signal.notify()  // cut the sleep short
        }
        node.logger.info("delivery worker stopped")
    }

    /// One pass: drops deliveries to unavailable domains that are past the horizon, then sends
    /// every due delivery of one batch (plus one probe per unavailable domain whose probe is
    /// due) and records each outcome.
    /// - Returns: What the pass did.
    @discardableResult
    public func deliverDue() async -> DeliverySummary {
        let now = self.now()
        var summary = DeliverySummary()
        let batch: [Delivery]
        let senders: [Int64: RequestSigner]
        do {
            summary.givenUp = try await dropExpired(now: now)
            let (due, probes) = try await node.database.pool.read { db in
                let due = try DeliveryQueue.due(at: now, limit: batchSize, in: db)
                let probes = try DeliveryQueue.probes(
                    at: now, lastFailureBefore: now.addingTimeInterval(-policy.probeInterval), limit: maxProbes, in: db)
                return (due, probes)
            }
            batch = due + probes
            summary.moreDue = due.count == batchSize
            senders = try await signers.signers(for: Set(batch.map(\.accountId)))
        } catch {
            node.logger.error("cannot read the delivery queue", metadata: ["error": "\(error)"])
            return summary
        }
        await send(batch, signers: senders, into: &summary)
        // Rows left due by a failed write would come straight back: wait for the next poll.
        summary.moreDue = summary.moreDue && summary.interrupted == 0
        return summary
    }

    /// Records that `domain` answered (an activity arrived from it, say), so deliveries to it
    /// resume at once if it was marked unavailable.
    /// - Parameter domain: The domain key, host plus `:port` if any (see `DeliveryDomain.name(of:)`).
    /// - Throws: A database error.
    public func markAvailable(domain: String) async throws {
        let now = self.now()
        let revived = try await node.database.pool.write { db in
            try DeliveryDomain.markAvailable(domain, at: now, in: db)
        }
        if revived {
            node.logger.notice("domain available again", metadata: ["domain": "\(domain)"])
            node.deliverySignal.notify()
        }
    }

    /// Sends `batch` with at most `maxInFlight` requests at once, adding each result to `summary`.
    /// Stops starting new sends on graceful shutdown or cancellation.
    private func send(_ batch: [Delivery], signers: [Int64: RequestSigner], into summary: inout DeliverySummary) async {
        var pending = batch.makeIterator()
        var revived = false
        await withTaskGroup(of: AttemptResult.self) { group in
            var started = 0
            func startNext() -> Bool {
                guard !Task.isCancelled, !Task.isShuttingDownGracefully, let delivery = pending.next() else { return false }
                started += 1
                group.addTask { await attempt(delivery, signer: signers[delivery.accountId]) }
                return true
            }
            while started < maxInFlight, startNext() {}
            for await result in group {
                summary.add(result)
                revived = revived || result.revivedDomain
                _ = startNext()
            }
            summary.interrupted += batch.count - started
        }
        if revived { node.deliverySignal.notify() }  // its skipped deliveries are due now
    }

    /// Gives up the deliveries that sat skipped on an unavailable domain past the horizon.
    private func dropExpired(now: Date) async throws -> Int {
        let cutoff = now.addingTimeInterval(-policy.giveUpAfter)
        let dropped = try await node.database.pool.write { db in
            try DeliveryQueue.dropExpired(queuedBefore: cutoff, in: db)
        }
        if dropped > 0 {
            node.logger.notice(
                "gave up deliveries to unavailable domains", metadata: ["count": "\(dropped)", "queuedBefore": "\(cutoff)"])
        }
        return dropped
    }
}
