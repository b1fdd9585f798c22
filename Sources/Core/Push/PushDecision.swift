import Foundation

/// What becomes of a queued push after an attempt, decided without side effects (the clock and
/// the jitter come in as arguments, so the rules are tested on their own).
///
/// As Mastodon's `Web::PushNotificationWorker`: 2xx (201 and 202 in practice) is done; 404 and
/// 410 mean the subscription expired or was unsubscribed, so it is removed; 408, 429, 5xx and
/// network failures retry with `RetryPolicy`'s backoff up to `maxAttempts`; any other 4xx
/// cannot be fixed by trying again and is dropped.
package enum PushDecision: Equatable {
    /// Delivered: forget the push.
    case delivered
    /// The push service no longer knows the subscription: remove it (and its other pushes).
    case removeSubscription
    /// Try again at this time.
    case retry(at: Date)
    /// Give the push up, for this reason.
    case drop(String)

    /// Attempts after which a push is given up (about 2 hours of backoff from 30 seconds).
    package static let maxAttempts = 8

    /// Decides after an attempt.
    /// - Parameters:
    ///   - outcome: How the attempt went.
    ///   - attempts: Attempts made, this one included.
    ///   - now: The current time.
    ///   - jitter: A value in `-1...1` spreading the wait.
    ///   - policy: Supplies the backoff.
    package static func decide(outcome: DeliveryOutcome, attempts: Int, now: Date, jitter: Double, policy: RetryPolicy) -> PushDecision {
        switch outcome {
        case .response(let status, _, _) where (200..<300).contains(status): return .delivered
        case .response(let status, _, _) where status == 404 || status == 410: return .removeSubscription
        case .response(let status, _, _) where (400..<500).contains(status) && status != 408 && status != 429:
            return .drop("the push service answered \(status)")
        case .refused, .unsendable: return .drop(outcome.summary)
        case .deferred: return .retry(at: now.addingTimeInterval(RetryPolicy.deferredDelay))
        case .response, .networkFailure:
            guard attempts < maxAttempts else { return .drop("\(outcome.summary), after \(attempts) attempts") }
            return .retry(at: now.addingTimeInterval(policy.backoff(attempts: attempts, jitter: jitter)))
        }
    }
}
