import Prometheus

/// One node's metrics, served at `GET /metrics` in the Prometheus text exposition format.
///
/// Each node owns its registry and hands its collectors to the parts that count (the inbox,
/// the workers, the HTTP middleware, the media pipeline, the database's group commit)
/// explicitly. Nothing goes through the process-wide swift-metrics system: it can be
/// bootstrapped once per process, and the tests run many nodes in one. `fednode serve`, which
/// runs one node, bootstraps swift-metrics onto this registry, so libraries that report through
/// swift-metrics show up at the same endpoint.
///
/// Every name starts with `fednode_` and is listed in `MetricName` with its help text.
public final class NodeMetrics: Sendable {
    /// The collectors, rendered by `exposition()`.
    public let registry: PrometheusCollectorRegistry
    /// Inbox acceptance, refusals and processing outcomes.
    package let inbox: InboxMetrics
    /// Delivery attempts, their outcomes and the failures per domain.
    package let delivery: DeliveryMetrics
    /// HTTP request durations by route.
    package let http: HTTPMetrics
    /// Time spent decoding and encoding photos.
    package let media: MediaMetrics
    /// Queue depth gauges, refreshed from the database when scraped.
    package let queues: QueueDepthGauges
    /// Sizes of the durable write groups (inbox group commit).
    private let groupCommitSizes: ValueHistogram
    /// Sizes of the queue bookkeeping groups (attempts, outcomes, retries).
    private let bookkeepingGroupSizes: ValueHistogram

    /// The content type of `exposition()`: the Prometheus text format, version 0.0.4.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// Creates the collectors of one node.
    /// - Parameters:
    ///   - registry: Where they register (a fresh one per node by default).
    ///   - maxDomainLabels: Distinct domains that get a failure series of their own; the rest
    ///     count under `other`, so hostile servers cannot grow the exposition without bound.
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(), maxDomainLabels: Int = 50) {
        self.registry = registry
        inbox = InboxMetrics(registry: registry)
        delivery = DeliveryMetrics(registry: registry, maxDomainLabels: maxDomainLabels)
        http = HTTPMetrics(registry: registry)
        media = MediaMetrics(registry: registry)
        queues = QueueDepthGauges(registry: registry)
        groupCommitSizes = registry.makeValueHistogram(
            descriptor: MetricName.groupCommitSize, buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256])
        bookkeepingGroupSizes = registry.makeValueHistogram(
            descriptor: MetricName.bookkeepingGroupSize, buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256])
    }

    /// Records one committed group of writes (the database calls it).
    /// - Parameters:
    ///   - durable: Durable inbox writes (`true`) or queue bookkeeping (`false`).
    ///   - size: How many writes shared the transaction.
    package func recordGroupCommit(durable: Bool, size: Int) {
        (durable ? groupCommitSizes : bookkeepingGroupSizes).record(Double(size))
    }

    /// Every collector in the text exposition format.
    public func exposition() -> [UInt8] {
        registry.emitToBuffer()
    }
}
