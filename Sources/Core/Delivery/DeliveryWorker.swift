import Foundation
import Logging
import ServiceLifecycle
import Signatures
import Storage

/// Sends the queued outbound activities: each due row of `delivery_queue` is signed with its
/// account's key (draft-cavage-12, as Mastodon signs), POSTed to its inbox through libcurl with
/// many requests in flight, and then deleted, rescheduled or given up as `RetryPolicy` decides.
///
/// Fairness: at most `limits.maxInFlight` requests run at once and at most
/// `limits.maxInFlightPerDomain` per domain; due work is taken round-robin across domains and a
/// slot is refilled as soon as its request ends (no waves). Every request has a total timeout of
/// `requestTimeout`, and a 2xx status line already counts as delivered. A slow inbox therefore
/// delays only its own domain's backlog.
///
/// Everything lives in SQLite, so a restarted node picks up where the last one stopped. Runs as a
/// `Service` under the application's service group; tests call `deliverDue()` directly.
public struct DeliveryWorker: Service {
    /// The node whose queue this worker drains.
    public let node: Node
    /// The clock every decision reads (injected by tests to skip days ahead).
    package let now: @Sendable () -> Date
    /// The retry and domain-health rules.
    package let policy: RetryPolicy
    /// How many deliveries one `deliverDue()` pass takes from the queue.
    package let batchSize = 64
    /// How many due deliveries of one domain the running worker reads ahead.
    package let readAheadPerDomain = 16
    /// How many due deliveries the running worker reads ahead in all.
    package let readAhead = 256
    /// Requests in flight, overall and per domain.
    package let limits: QueueLimits
    /// 64 requests at once, 4 per domain: a delivery mostly waits on the remote server, so
    /// throughput follows the number in flight (16 at once would cap a node at 80 deliveries a
    /// second to servers 200 ms away); a slow domain still holds at most 4 slots.
    public static let defaultLimits = QueueLimits(maxInFlight: 64, maxInFlightPerDomain: 4)
    /// How many unavailable domains one pass probes at most.
    package let maxProbes = 16
    /// How long the worker sleeps when nothing is due and nothing is queued meanwhile.
    package let pollInterval: Duration
    /// Parsed signing keys, per account.
    package let signers: DeliverySigners
    /// The client deliveries go through: the node's policy, with the delivery timeouts.
    package let httpClient: CurlHTTPClient

    /// The total time one delivery request may take before it counts as a network failure.
    public static let requestTimeout: Duration = .seconds(15)

    /// Creates a worker for `node`.
    /// - Parameters:
    ///   - node: The node: database, configuration, delivery signal, logger.
    ///   - now: The clock; the system clock unless a test injects another.
    ///   - policy: The retry rules; FedNode's defaults unless given.
    ///   - pollInterval: The longest sleep between passes when not notified; 5 seconds.
    ///   - limits: Requests in flight at once, overall and per domain; `defaultLimits` unless given.
    public init(
        node: Node, now: @escaping @Sendable () -> Date = { Date() }, policy: RetryPolicy = RetryPolicy(),
        pollInterval: Duration = .seconds(5), limits: QueueLimits = Self.defaultLimits
    ) {
        self.node = node
        self.now = now
        self.policy = policy
        self.pollInterval = pollInterval
        self.limits = limits
        self.signers = DeliverySigners(database: node.database, logger: node.logger, instanceActor: node.instanceActor.signer)
        var client = CurlHTTPClient.Configuration(
            userAgent: CurlHTTPClient.Configuration.userAgent(
                publicURL: node.configuration.publicURL + "/", version: NodeConfiguration.softwareVersion),
            connectTimeout: .seconds(5), totalTimeout: Self.requestTimeout)
        client.allowPrivateAddresses = node.configuration.testMode
        if node.configuration.testMode { client.resolve = node.configuration.testResolve }
        self.httpClient = CurlHTTPClient(configuration: client)
    }

    /// Delivers until the task is cancelled or the service group shuts down gracefully, starting
    /// a due delivery whenever a slot is free. Sleeps until `node.deliverySignal` is notified
    /// or `pollInterval` passes when nothing startable is waiting. On graceful shutdown the
    /// requests in flight finish and nothing new starts; what is left stays queued.
    public func run() async throws {
        node.logger.info("delivery worker started")
        let signal = node.deliverySignal
        // Deliveries another process queued (several processes on one database).
        let observation = Deliveries.observeQueue(in: node.database) { signal.notify() }
        defer { observation?.cancel() }
        await withGracefulShutdownHandler {
            _ = await pump(continuous: true)
        } onGracefulShutdown: {
            signal.notify()  // cut the sleep short
        }
        node.logger.info("delivery worker stopped")
    }

    /// One pass: drops deliveries to unavailable domains that are past the horizon, then sends
    /// one batch of due deliveries (taken round-robin across domains, plus one probe per
    /// unavailable domain whose probe is due) within the concurrency limits, and records each
    /// outcome.
    /// - Returns: What the pass did.
    @discardableResult
    public func deliverDue() async -> DeliverySummary {
        await pump(continuous: false)
    }

    /// Records that `domain` answered (an activity arrived from it, say), so deliveries to it
    /// resume at once if it was marked unavailable.
    /// - Parameter domain: The domain key, host plus `:port` if any (see `DeliveryDomain.name(of:)`).
    /// - Throws: A database error.
    public func markAvailable(domain: String) async throws {
        let now = self.now()
        let revived = try await node.database.write { db in
            try db.deliveries.markAvailable(domain, at: now)
        }
        if revived {
            node.logger.notice("domain available again", metadata: ["domain": "\(domain)"])
            node.deliverySignal.notify()
        }
    }

    /// Gives up the deliveries that sat skipped on an unavailable domain past the horizon.
    package func dropExpired(now: Date) async throws -> Int {
        let cutoff = now.addingTimeInterval(-policy.giveUpAfter)
        let dropped = try await node.database.write { db in
            try db.deliveries.dropExpired(queuedBefore: cutoff)
        }
        if dropped > 0 {
            node.logger.notice(
                "gave up deliveries to unavailable domains", metadata: ["count": "\(dropped)", "queuedBefore": "\(cutoff)"])
        }
        return dropped
    }
}
