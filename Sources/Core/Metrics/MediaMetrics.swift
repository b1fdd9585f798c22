import Prometheus

/// How long libvips takes over each uploaded image.
package struct MediaMetrics: Sendable {
    private let registry: PrometheusCollectorRegistry
    /// From 10 ms to a minute: a 12 MP photo takes a few hundred milliseconds on two cores.
    package static let buckets: [Duration] = ([0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60] as [Double])
        .map { Duration.milliseconds(Int64($0 * 1000)) }

    /// Registers nothing yet: series appear with the first image of each kind.
    package init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
    }

    /// Records one image of `kind` processed in `elapsed`, successfully or not.
    package func processed(_ kind: MediaKind, elapsed: Duration, succeeded: Bool) {
        registry.makeDurationHistogram(
            descriptor: MetricName.mediaProcessing,
            labels: [("kind", "\(kind)"), ("result", succeeded ? "ok" : "error")],
            buckets: Self.buckets
        ).record(elapsed)
    }
}
