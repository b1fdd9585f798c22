import Foundation
import Logging
import ServiceLifecycle
import Signatures
import Storage

/// Sends the queued Web Push messages (`push_deliveries`, filled by the database in the same
/// transaction as each notification): the payload is encrypted for the subscription (RFC 8291,
/// `aes128gcm`), signed with the node's VAPID key (RFC 8292) and POSTed through libcurl with the
/// node's address policy; `PushDecision` then says whether it is done, retried or given up, and
/// whether the subscription is gone. Runs as a `Service`; tests may call `sendDue()`.
public struct PushWorker: Service {
    /// The node whose queue this worker drains.
    public let node: Node
    /// The clock decisions read.
    package let now: @Sendable () -> Date
    /// Supplies the backoff between attempts.
    package let policy: RetryPolicy
    /// The longest the worker sleeps between passes; it wakes sooner when a push is queued
    /// or a retry falls due.
    package let pollInterval: Duration
    /// The client pushes go through: the node's address policy, short timeouts.
    package let httpClient: CurlHTTPClient
    /// How many pushes one pass sends, concurrently.
    package static let batchSize = 16
    /// How long a push service has to answer.
    package static let requestTimeout: Duration = .seconds(15)
    /// How long push services keep an undelivered message (48 hours, as Mastodon asks).
    package static let ttl = 172_800

    /// Creates a worker for `node`.
    /// - Parameters:
    ///   - now: The clock; the system clock unless a test injects another.
    ///   - policy: The backoff; FedNode's defaults unless given.
    ///   - pollInterval: The longest sleep between passes; 30 seconds.
    public init(node: Node, now: @escaping @Sendable () -> Date = { Date() }, policy: RetryPolicy = RetryPolicy(),
                pollInterval: Duration = .seconds(30)) {
        self.node = node
        self.now = now
        self.policy = policy
        self.pollInterval = pollInterval
        var client = CurlHTTPClient.Configuration(
            userAgent: CurlHTTPClient.Configuration.userAgent(
                publicURL: node.configuration.publicURL + "/", version: NodeConfiguration.softwareVersion),
            connectTimeout: .seconds(5), totalTimeout: Self.requestTimeout)
        client.allowPrivateAddresses = node.configuration.testMode
        httpClient = CurlHTTPClient(configuration: client)
    }

    /// Sends due pushes until the service group shuts down: after each pass it sleeps until a
    /// push is queued (the queue is observed), the next retry is due, or `pollInterval` passed.
    public func run() async throws {
        let signal = WorkSignal()
        let observation = PushSubscriptions.observeQueue(in: node.database) { signal.notify() }
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let sent = await sendDue()
                if sent < Self.batchSize { await signal.wait(timeout: await untilNextDue()) }
            }
        }
        observation.cancel()
        httpClient.shutdown()
    }

    /// How long until the next queued push is due: at least 10 ms, at most `pollInterval`.
    private func untilNextDue() async -> Duration {
        let current = now()
        guard let next = try? await node.database.read({ db in try db.pushSubscriptions.nextDue(at: current) }) else { return pollInterval }
        let seconds = max(0.01, next.timeIntervalSince(now()))
        return seconds >= Double(pollInterval.components.seconds) ? pollInterval : .milliseconds(Int64(seconds * 1000))
    }

    /// One pass: sends up to `batchSize` due pushes at once and records each outcome.
    /// - Returns: How many pushes were attempted.
    @discardableResult
    public func sendDue() async -> Int {
        let due: [PushDelivery]
        let (database, current, holder) = (node.database, now(), node.processId)
        do {
            // Several processes on one database claim what they send; one process only reads.
            if database.isShared {
                due = try await database.writeBookkeeping { try $0.pushSubscriptions.claimDue(at: current, limit: Self.batchSize, holder: holder) }
            } else {
                due = try await database.read { try $0.pushSubscriptions.due(at: current, limit: Self.batchSize) }
            }
        } catch {
            node.logger.error("push queue unreadable", metadata: ["error": "\(error)"])
            return 0
        }
        node.claimedWork.add(due.map(\.id), to: .pushes)
        await withTaskGroup(of: Void.self) { group in
            for delivery in due {
                group.addTask {
                    await send(delivery)
                    node.claimedWork.remove(delivery.id, from: .pushes)
                }
            }
        }
        return due.count
    }

    /// Sends one push and records what became of it.
    private func send(_ delivery: PushDelivery) async {
        do {
            guard let message = try await PushMessage.load(delivery, node: node) else {
                try await node.database.write { db in try db.pushSubscriptions.finish(delivery.id) }
                return
            }
            let outcome = await post(message)
            let decision = PushDecision.decide(outcome: outcome, attempts: delivery.attempts + 1, now: now(),
                                               jitter: Double.random(in: -1...1), policy: policy)
            try await record(decision, delivery: delivery, outcome: outcome)
        } catch {
            node.logger.error("push failed", metadata: ["id": "\(delivery.id)", "error": "\(error)"])
        }
    }

    /// Encrypts, signs and POSTs the message.
    private func post(_ message: PushMessage) async -> DeliveryOutcome {
        let request: HTTPClientRequest
        do { request = try message.request(vapidKey: node.vapidKey, subject: subject, now: now(), ttl: Self.ttl) } catch {
            return .unsendable("cannot encrypt the push: \(error)")
        }
        do {
            let response = try await httpClient.execute(request)
            return .response(status: response.status, retryAfter: response.header("Retry-After"))
        } catch {
            if case .blockedAddress(let address) = error { return .refused(address) }
            if case .invalidURL(let url) = error { return .unsendable("invalid endpoint \(url)") }
            if case .addressBusy(let address) = error { return .deferred(address) }
            return .networkFailure("\(error)")
        }
    }

    /// Applies a decision to the queue.
    private func record(_ decision: PushDecision, delivery: PushDelivery, outcome: DeliveryOutcome) async throws {
        try await node.database.write { db in
            switch decision {
            case .delivered: try db.pushSubscriptions.finish(delivery.id)
            case .removeSubscription: try db.pushSubscriptions.delete(id: delivery.subscriptionId)
            case .drop: try db.pushSubscriptions.finish(delivery.id)
            case .retry(let at):
                try db.pushSubscriptions.reschedule(delivery.id, attempts: delivery.attempts + 1, nextAttemptAt: at,
                                                    status: outcome.status, error: outcome.summary)
            }
        }
        if case .drop(let reason) = decision {
            node.logger.notice("push given up", metadata: ["id": "\(delivery.id)", "reason": "\(reason)"])
        }
    }

    /// The VAPID `sub` claim: the node's https URL, or a mailto: address when it has none.
    private var subject: String {
        let url = node.configuration.publicURL
        return url.hasPrefix("https://") ? url : "mailto:admin@\(node.urls.domain)"
    }
}
