import Prometheus
import Synchronization

/// HTTP request durations by matched route pattern, method and status class.
package final class HTTPMetrics: Sendable {
    /// One series: every label is from a bounded set (routes the router knows, a few methods,
    /// five status classes).
    private struct Series: Hashable {
        let route: String
        let method: String
        let status: String
    }

    /// From 1 ms to 10 s: an inbox 202 takes a few milliseconds, a timeline page tens.
    package static let buckets: [Duration] = ([1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000] as [Double])
        .map { Duration.microseconds(Int64($0 * 1000)) }
    /// Methods reported by name; any other counts as `other`.
    package static let knownMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    /// Statements per request: a list page should take a handful.
    package static let statementBuckets: [Double] = [1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 75, 100, 200]

    private let registry: PrometheusCollectorRegistry
    private let series = Mutex<[Series: DurationHistogram]>([:])
    private let statementSeries = Mutex<[Series: ValueHistogram]>([:])

    /// Registers nothing yet: series appear with the first request of each kind.
    package init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
    }

    /// Records one request.
    /// - Parameters:
    ///   - route: The pattern the router matched (`/users/:username/inbox`), `NotFound` when none did.
    ///   - method: The request's method, as sent.
    ///   - status: The status answered.
    ///   - elapsed: From the request head to the response head.
    package func record(route: String, method: String, status: Int, elapsed: Duration) {
        let key = Series(
            route: route, method: Self.knownMethods.contains(method) ? method : "other",
            status: (100...599).contains(status) ? "\(status / 100)xx" : "other")
        let histogram = series.withLock { series in
            if let existing = series[key] { return existing }
            let made = registry.makeDurationHistogram(
                descriptor: MetricName.httpDuration,
                labels: [("route", key.route), ("method", key.method), ("status", key.status)], buckets: Self.buckets)
            series[key] = made
            return made
        }
        histogram.record(elapsed)
    }

    /// Records the statements one request ran (labels as in `record`, without the status).
    package func recordStatements(route: String, method: String, statements: Int) {
        let key = Series(route: route, method: Self.knownMethods.contains(method) ? method : "other", status: "")
        let histogram = statementSeries.withLock { series in
            if let existing = series[key] { return existing }
            let made = registry.makeValueHistogram(
                descriptor: MetricName.httpStatements, labels: [("route", key.route), ("method", key.method)], buckets: Self.statementBuckets)
            series[key] = made
            return made
        }
        histogram.record(Double(statements))
    }
}
