import Core
import Foundation
import ServiceLifecycle
import Storage

/// An open subscription: its id in the hub and what it receives.
public struct StreamSubscription: Sendable {
    /// The id used to change or end it.
    public let id: Int
    /// Events, error replies and heartbeats, in order; finishes when it ends.
    public let outputs: AsyncStream<StreamOutput>
}

/// Streaming's one source of events: reads the `stream_events` log (filled by triggers in the
/// same transaction as each change, whichever path made it) in id order, routes each row to
/// the interested subscribers (`StreamRouter`), and prunes rows older than ten minutes.
/// Wakes when the log changes (`StreamLog.observeChanges`) and polls every 200 ms for writers
/// in other processes; reads nothing while nobody is subscribed. Runs under the application's service group; on shutdown every
/// subscription finishes, so streaming responses end and the server can drain.
public actor StreamingHub: Service {
    private struct Subscriber {
        let viewer: Account?
        var channels: Set<StreamChannel>
        let continuation: AsyncStream<StreamOutput>.Continuation
    }

    /// The node (database, rendering).
    let node: Node
    private var subscribers: [Int: Subscriber] = [:]
    private var nextId = 1
    private var cursor: Int64?
    private var closed = false
    /// Public streams of recently routed posts, so deletes reach the streams the post reached.
    private var audiences: [Int64: Set<StreamChannel>] = [:]
    private var lastHeartbeat = ContinuousClock.now
    private var lastPrune = ContinuousClock.now
    private let wake = WorkSignal()

    /// How long log rows are kept.
    static let retention: TimeInterval = 600
    /// Rows read per database pass.
    static let batchSize = 200
    /// How many post audiences are remembered for deletes.
    static let audienceMemory = 20_000

    /// A hub for `node`; it reads nothing until `run()`.
    public init(node: Node) {
        self.node = node
    }

    // MARK: Subscriptions

    /// Opens a subscription for `viewer` (`nil`: anonymous) on `channels`. The caller checks
    /// that the viewer may use them.
    public func subscribe(viewer: Account?, to channels: Set<StreamChannel> = []) async -> StreamSubscription {
        if subscribers.isEmpty { await catchUp() }
        let (stream, continuation) = AsyncStream.makeStream(of: StreamOutput.self, bufferingPolicy: .bufferingOldest(1000))
        let id = nextId
        nextId += 1
        guard !closed else {
            continuation.finish()
            return StreamSubscription(id: id, outputs: stream)
        }
        subscribers[id] = Subscriber(viewer: viewer, channels: channels, continuation: continuation)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        return StreamSubscription(id: id, outputs: stream)
    }

    /// With nobody listening the log is not read; the first subscriber starts at its end, so
    /// it hears everything logged after it subscribed and nothing before.
    private func catchUp() async {
        guard let latest = try? await node.database.read({ try $0.stream.latestId() }) else { return }
        // Another subscriber may have arrived meanwhile; its cursor must not move past unrouted rows.
        if subscribers.isEmpty { cursor = max(cursor ?? 0, latest) }
    }

    /// Adds a stream to subscription `id`.
    public func add(_ channel: StreamChannel, to id: Int) {
        subscribers[id]?.channels.insert(channel)
    }

    /// Removes a stream from subscription `id`.
    public func remove(_ channel: StreamChannel, from id: Int) {
        subscribers[id]?.channels.remove(channel)
    }

    /// Queues an error reply for subscription `id` (a WebSocket client's bad message).
    public func reply(_ error: String, to id: Int) {
        subscribers[id]?.continuation.yield(.error(error))
    }

    /// Ends subscription `id`.
    public func unsubscribe(_ id: Int) {
        subscribers.removeValue(forKey: id)?.continuation.finish()
    }

    // MARK: Service

    /// Routes log rows until cancelled or shut down, then ends every subscription.
    public func run() async throws {
        // A failed observation only costs latency: the 200 ms poll still runs.
        let observation = StreamLog.observeChanges(in: node.database, onChange: { [wake] in wake.notify() })
        defer { observation.cancel() }
        await cancelWhenGracefulShutdown {
            await self.loop()
        }
        closed = true
        for subscriber in subscribers.values { subscriber.continuation.finish() }
        subscribers.removeAll()
    }

    private func loop() async {
        while !Task.isCancelled {
            await pass()
            await wake.wait(timeout: .milliseconds(200))
        }
    }

    /// One pass: deliver new rows, then heartbeats and pruning when due.
    private func pass() async {
        do {
            try await deliverNewEvents()
            if lastPrune.duration(to: .now) > .seconds(60) {
                lastPrune = .now
                try await prune()
            }
        } catch is CancellationError {
            return  // shutting down
        } catch {
            node.logger.error("streaming pass failed", metadata: ["error": "\(error)"])
        }
        if lastHeartbeat.duration(to: .now) > .seconds(15) {
            lastHeartbeat = .now
            for subscriber in subscribers.values { subscriber.continuation.yield(.heartbeat) }
        }
    }

    private func deliverNewEvents() async throws {
        guard !subscribers.isEmpty else { return }
        guard let from = cursor else {
            cursor = try await node.database.read { try $0.stream.latestId() }
            return
        }
        let listeners = subscribers.map { StreamListener(id: $0.key, viewer: $0.value.viewer, channels: $0.value.channels) }
        let known = audiences
        let (events, outcomes) = try await node.database.read { [node] db in
            let events = try db.stream.events(after: from, limit: Self.batchSize)
            return (events, Self.route(events, to: listeners, known: known, node: node, db: db))
        }
        for outcome in outcomes { deliver(outcome) }
        cursor = events.last?.id ?? from
        if events.count == Self.batchSize { wake.notify() }
    }

    /// Routes a batch in order; a row that fails to render is logged and skipped.
    private static func route(_ events: [StreamEvent], to listeners: [StreamListener], known: [Int64: Set<StreamChannel>],
                              node: Node, db: Transaction) -> [StreamRouter.Outcome] {
        var known = known
        let router = StreamRouter(node: node, db: db)
        return events.map { event in
            guard !listeners.isEmpty else { return StreamRouter.Outcome() }
            let deleted = event.kind == .delete ? event.postId.flatMap { known[$0] } : nil
            do {
                let outcome = try router.route(event, to: listeners, deletedAudience: deleted)
                if let audience = outcome.audience { known[audience.postId] = audience.channels }
                return outcome
            } catch {
                node.logger.error("streaming event skipped", metadata: ["event": "\(event.id)", "error": "\(error)"])
                return StreamRouter.Outcome()
            }
        }
    }

    private func deliver(_ outcome: StreamRouter.Outcome) {
        if let audience = outcome.audience {
            audiences[audience.postId] = audience.channels
            if audiences.count > Self.audienceMemory {
                // Snowflake ids sort by time: forget the older half.
                let cutoff = audiences.keys.sorted()[audiences.count / 2]
                audiences = audiences.filter { $0.key >= cutoff }
            }
        }
        for delivery in outcome.deliveries {
            // The client may have left the stream while the batch was rendered.
            guard let subscriber = subscribers[delivery.subscriber], subscriber.channels.contains(delivery.channel) else { continue }
            subscriber.continuation.yield(.event(delivery.message))
        }
    }

    private func prune() async throws {
        // Rows not yet routed to the current subscribers stay.
        let upTo = subscribers.isEmpty ? Int64.max : (cursor ?? 0)
        let before = Date().addingTimeInterval(-Self.retention)
        _ = try await node.database.write { try $0.stream.prune(before: before, upTo: upTo) }
    }
}
