import Prometheus

/// Outgoing delivery attempts, their outcomes, and failures per recipient domain.
package struct DeliveryMetrics: Sendable {
    /// How one attempt ended.
    package enum Outcome: String, Sendable, CaseIterable {
        /// The inbox accepted it.
        case delivered
        /// Failed; scheduled again.
        case retry
        /// Dropped for good.
        case gaveUp = "gave_up"
        /// Cancelled by a shutdown, or its result could not be stored: it stays due.
        case interrupted
    }

    private let registry: PrometheusCollectorRegistry
    private let attempts: [Outcome: Counter]
    private let domains: BoundedLabel

    /// Registers the delivery counters; at most `maxDomainLabels` domains get a failure series.
    package init(registry: PrometheusCollectorRegistry, maxDomainLabels: Int) {
        self.registry = registry
        attempts = Dictionary(uniqueKeysWithValues: Outcome.allCases.map {
            ($0, registry.makeCounter(descriptor: MetricName.deliveryAttempts, labels: [("outcome", $0.rawValue)]))
        })
        domains = BoundedLabel(limit: maxDomainLabels)
    }

    /// Counts one attempt to `domain` that ended with `outcome`; `retry` and `gaveUp` also count
    /// as a failure of the domain.
    package func attempted(_ outcome: Outcome, domain: String) {
        attempts[outcome]?.increment()
        guard outcome == .retry || outcome == .gaveUp else { return }
        registry.makeCounter(
            descriptor: MetricName.deliveryFailures, labels: [("domain", domains.value(for: domain))]
        ).increment()
    }
}
