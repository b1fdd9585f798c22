/// How one attempt ended, for the pass's summary.
package struct AttemptResult: Sendable {
    /// Where the delivery went.
    package enum Disposition: Sendable {
        /// Accepted by the inbox and removed from the queue.
        case delivered
        /// Failed and rescheduled.
        case retried
        /// Dropped for good.
        case givenUp
        /// Left due as it was (cancelled, or its outcome could not be stored).
        case interrupted
    }

    /// Where the delivery went.
    package var disposition: Disposition
    /// Whether this attempt brought an unavailable domain back.
    package var revivedDomain = false
}

extension DeliverySummary {
    /// Counts one attempt's result.
    package mutating func add(_ result: AttemptResult) {
        switch result.disposition {
        case .delivered: delivered += 1
        case .retried: retried += 1
        case .givenUp: givenUp += 1
        case .interrupted: interrupted += 1
        }
    }
}
