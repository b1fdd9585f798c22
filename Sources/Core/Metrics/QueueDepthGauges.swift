import Foundation
import Prometheus
import Storage
import Synchronization

/// The inbox and delivery queue depth gauges, read from the database when `/metrics` is
/// scraped (Prometheus scrapes every 15 to 60 s): nothing runs between scrapes, and scrapes
/// closer than `minimumInterval` reuse the last reading, so a flood of scrapes costs no more
/// than one read a second.
package final class QueueDepthGauges: Sendable {
    /// The shortest time between two database reads.
    package static let minimumInterval: Duration = .seconds(1)
    private let inbox: [String: Gauge]
    private let delivery: [String: Gauge]
    private let unavailableDomains: Gauge
    private let lastRead = Mutex<ContinuousClock.Instant?>(nil)

    /// Registers the gauges (every state up front, so they read 0 before the first scrape).
    package init(registry: PrometheusCollectorRegistry) {
        inbox = Dictionary(uniqueKeysWithValues: ["pending", "retrying", "parked"].map {
            ($0, registry.makeGauge(descriptor: MetricName.inboxQueueDepth, labels: [("state", $0)]))
        })
        delivery = Dictionary(uniqueKeysWithValues: ["pending", "retrying", "unavailable"].map {
            ($0, registry.makeGauge(descriptor: MetricName.deliveryQueueDepth, labels: [("state", $0)]))
        })
        unavailableDomains = registry.makeGauge(descriptor: MetricName.unavailableDomains)
    }

    /// Reads both queues' depths (one read transaction, off the caller's thread) unless they
    /// were read less than `minimumInterval` ago.
    /// - Throws: A database error; the gauges keep their last values then.
    package func refresh(from database: NodeDatabase, now: Date = Date()) async throws {
        let due = lastRead.withLock { last -> Bool in
            let current = ContinuousClock.now
            if let last, current - last < Self.minimumInterval { return false }
            last = current
            return true
        }
        guard due else { return }
        let (inboxDepth, deliveryDepth) = try await database.read { tx in
            (try tx.inbox.depth(at: now), try tx.deliveries.depth(at: now))
        }
        inbox["pending"]?.set(Int64(inboxDepth.pending))
        inbox["retrying"]?.set(Int64(inboxDepth.retrying))
        inbox["parked"]?.set(Int64(inboxDepth.parked))
        delivery["pending"]?.set(Int64(deliveryDepth.pending))
        delivery["retrying"]?.set(Int64(deliveryDepth.retrying))
        delivery["unavailable"]?.set(Int64(deliveryDepth.unavailable))
        unavailableDomains.set(Int64(deliveryDepth.unavailableDomains))
    }
}
