import Prometheus

/// What the inbox accepted and refused, and how processing ended.
package struct InboxMetrics: Sendable {
    /// Why an accepted POST was answered 202.
    package enum Acceptance: String, Sendable {
        /// Stored in the queue for processing.
        case queued
        /// Its id was seen from its origin before: acknowledged again, not reprocessed.
        case duplicate
        /// A Delete of an actor this node never knew: nothing to do.
        case skipped
    }

    /// How one processing attempt ended.
    package enum Outcome: String, Sendable, CaseIterable {
        /// A handler applied it.
        case processed
        /// Nothing to do (unsupported type, unknown sender, already applied).
        case ignored
        /// Refused for good (malformed, forbidden, not from its origin).
        case refused
        /// Failed; scheduled again.
        case retry
        /// Taken out of processing (failed too often, or killed the process repeatedly).
        case parked
    }

    private let registry: PrometheusCollectorRegistry
    private let accepted: [Acceptance: Counter]
    private let outcomes: [Outcome: Counter]

    /// Registers the inbox counters (every fixed label value up front, so they read 0 at first).
    package init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
        accepted = Dictionary(uniqueKeysWithValues: [Acceptance.queued, .duplicate, .skipped].map {
            ($0, registry.makeCounter(descriptor: MetricName.inboxAccepted, labels: [("result", $0.rawValue)]))
        })
        outcomes = Dictionary(uniqueKeysWithValues: Outcome.allCases.map {
            ($0, registry.makeCounter(descriptor: MetricName.inboxProcessed, labels: [("outcome", $0.rawValue)]))
        })
    }

    /// Counts a POST answered 202.
    package func accepted(_ result: Acceptance) {
        accepted[result]?.increment()
    }

    /// Counts a POST refused with HTTP `status` (a bounded set: the statuses `NodeError` maps to).
    package func refused(status: Int) {
        registry.makeCounter(descriptor: MetricName.inboxRefused, labels: [("status", String(status))]).increment()
    }

    /// Activity types reported by name; any other counts as `other`.
    package static let knownTypes: Set<String> = [
        "Create", "Update", "Delete", "Follow", "Accept", "Reject", "Undo", "Like", "Announce", "Block", "Flag", "Move", "Add", "Remove", "EmojiReact",
    ]

    /// Records the statements one processed activity of `type` ran.
    package func recordStatements(type: String?, statements: Int) {
        let label = type.flatMap { Self.knownTypes.contains($0) ? $0 : nil } ?? "other"
        registry.makeValueHistogram(descriptor: MetricName.inboxStatements, labels: [("type", label)], buckets: HTTPMetrics.statementBuckets)
            .record(Double(statements))
    }

    /// Counts `count` processing attempts that ended with `outcome`.
    package func ended(_ outcome: Outcome, count: Int = 1) {
        outcomes[outcome]?.increment(by: Int64(count))
    }
}
