import Foundation

/// What happens to a delivery after an attempt, as `RetryPolicy.decide` rules.
public enum DeliveryDecision: Sendable, Equatable {
    /// The inbox accepted it; the delivery is done.
    case delivered
    /// Try again, not before the given time.
    case retry(at: Date)
    /// Stop trying, for the reason given (logged, then the delivery is dropped).
    case giveUp(reason: String)
}
