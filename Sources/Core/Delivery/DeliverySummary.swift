/// What one pass of the delivery worker did.
public struct DeliverySummary: Sendable, Equatable {
    /// Deliveries the inbox accepted.
    public var delivered = 0
    /// Deliveries that failed and were rescheduled.
    public var retried = 0
    /// Deliveries dropped: permanent failures, and retries or skipped deliveries past the horizon.
    public var givenUp = 0
    /// Deliveries left due as they were: the send was cancelled or its result could not be stored.
    public var interrupted = 0
    /// Whether the batch was full, so more may be due right away.
    public var moreDue = false

    /// Creates an empty summary.
    public init() {}
}
