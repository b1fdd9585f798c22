import Foundation
import Signatures

/// Decides, without side effects, what becomes of a delivery after an attempt and when a domain
/// that keeps failing should be skipped. The clock and the randomness come in as arguments, so
/// every decision can be tested on its own.
///
/// The rules follow Mastodon's `DeliveryWorker`: 2xx is delivered; a 4xx other than 401, 408
/// and 429 cannot be fixed by trying again; everything else retries with exponential backoff
/// until about a week after the activity was queued.
public struct RetryPolicy: Sendable {
    /// The wait after the first failed attempt; it doubles with each further failure.
    public var baseDelay: TimeInterval
    /// The longest wait between attempts, before jitter.
    public var maxDelay: TimeInterval
    /// How far jitter moves a wait, as a fraction of it (0.25 is ±25%).
    public var jitterFraction: Double
    /// How long after it was queued a delivery is given up.
    public var giveUpAfter: TimeInterval
    /// How long a domain must fail without a single success to be marked unavailable.
    public var unavailableAfter: TimeInterval
    /// How often one delivery is tried on an unavailable domain to see whether it is back.
    public var probeInterval: TimeInterval

    /// How a domain's health reads an outcome.
    public enum DomainVerdict: Sendable, Equatable {
        /// The domain answered (even with a permanent error): it is up.
        case reachable
        /// The domain failed in a way that may pass: down, overloaded or refusing us for now.
        case failing
        /// The outcome says nothing about the domain (we never reached it).
        case unaffected
    }

    /// Creates a policy; the defaults are FedNode's.
    /// - Parameters:
    ///   - baseDelay: First wait; 30 seconds.
    ///   - maxDelay: Longest wait before jitter; 12 hours.
    ///   - jitterFraction: Spread of each wait; ±25%.
    ///   - giveUpAfter: Horizon from queueing; 7 days.
    ///   - unavailableAfter: Failing time before a domain is skipped; 3 days.
    ///   - probeInterval: Between probes of an unavailable domain; 1 hour.
    public init(
        baseDelay: TimeInterval = 30, maxDelay: TimeInterval = 12 * 3600, jitterFraction: Double = 0.25,
        giveUpAfter: TimeInterval = 7 * 86_400, unavailableAfter: TimeInterval = 3 * 86_400,
        probeInterval: TimeInterval = 3600
    ) {
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.jitterFraction = jitterFraction
        self.giveUpAfter = giveUpAfter
        self.unavailableAfter = unavailableAfter
        self.probeInterval = probeInterval
    }

    /// How long a delivery whose address was busy waits before it is tried again at least (a
    /// tenth of its time in the queue, at most 5 minutes), before jitter (up to half either way).
    package static let deferredDelay: TimeInterval = 10

    /// Decides what becomes of a delivery after an attempt.
    /// - Parameters:
    ///   - attempts: Attempts made so far, the one just finished included (1 after the first).
    ///   - firstQueuedAt: When the delivery was queued.
    ///   - outcome: How the attempt went.
    ///   - now: The current time.
    ///   - jitter: A value in `-1...1` (drawn at random by the worker) that spreads the wait
    ///     by up to `jitterFraction` either way; values outside are clamped.
    /// - Returns: Delivered, retry at a time, or give up with the reason.
    public func decide(
        attempts: Int, firstQueuedAt: Date, outcome: DeliveryOutcome, now: Date, jitter: Double
    ) -> DeliveryDecision {
        switch outcome {
        case .response(let status, _, _) where (200..<300).contains(status):
            return .delivered
        case .response(let status, _, _) where Self.isPermanent(status: status):
            return .giveUp(reason: "the inbox answered \(status)")
        case .refused(let address):
            return .giveUp(reason: "the inbox is at non-public address \(address)")
        case .unsendable(let reason):
            return .giveUp(reason: reason)
        case .deferred:
            // Sent later, soon: the address's other requests end within the request timeout.
            guard now < firstQueuedAt.addingTimeInterval(giveUpAfter) else {
                return .giveUp(reason: "\(outcome.summary), \(Self.days(giveUpAfter)) days after it was queued")
            }
            // Soon at first; a delivery deferred for long waits up to 5 minutes between tries,
            // so a machine that stays busy costs few queue reads.
            let wait = min(300, max(Self.deferredDelay, now.timeIntervalSince(firstQueuedAt) / 10))
            return .retry(at: now.addingTimeInterval(wait * (1 + 0.5 * min(1, max(-1, jitter)))))
        case .response, .networkFailure:
            let deadline = firstQueuedAt.addingTimeInterval(giveUpAfter)
            guard now < deadline else {
                return .giveUp(reason: "\(outcome.summary), still failing \(Self.days(giveUpAfter)) days after it was queued")
            }
            var next = now.addingTimeInterval(backoff(attempts: attempts, jitter: jitter))
            if case .response(_, let header?, _) = outcome, let notBefore = Self.retryAfter(header, now: now) {
                // RFC 9110 10.2.3: not before the time the server asks for, but an absurd
                // request must not keep the delivery past the horizon.
                next = max(next, min(notBefore, deadline))
            }
            return .retry(at: next)
        }
    }

    /// The wait before the next attempt after `attempts` failures: `baseDelay` doubled per
    /// failure after the first, capped at `maxDelay`, then moved by the jitter.
    /// - Parameters:
    ///   - attempts: Failed attempts so far (at least 1).
    ///   - jitter: A value in `-1...1`; clamped.
    /// - Returns: The wait in seconds.
    public func backoff(attempts: Int, jitter: Double) -> TimeInterval {
        let doublings = min(max(attempts - 1, 0), 40)  // 2^40 · 30 s is far past any cap
        let delay = min(baseDelay * pow(2, Double(doublings)), maxDelay)
        return delay * (1 + jitterFraction * min(max(jitter, -1), 1))
    }

    /// How an outcome bears on the health of the inbox's domain. Like Mastodon, a permanent
    /// 4xx counts as an answer (the domain is up), a retryable failure as a failure.
    /// - Parameter outcome: How an attempt went.
    /// - Returns: Reachable, failing, or unaffected.
    public func domainVerdict(for outcome: DeliveryOutcome) -> DomainVerdict {
        switch outcome {
        case .response(let status, _, _) where (200..<300).contains(status) || Self.isPermanent(status: status):
            .reachable
        case .response, .networkFailure: .failing
        case .refused, .unsendable, .deferred: .unaffected
        }
    }

    /// Whether a domain failing without a success since `failingSince` should now be skipped.
    /// - Parameters:
    ///   - failingSince: Start of the domain's current run of failures.
    ///   - now: The current time.
    /// - Returns: `true` once the run has lasted `unavailableAfter`.
    public func shouldMarkUnavailable(failingSince: Date, now: Date) -> Bool {
        now.timeIntervalSince(failingSince) >= unavailableAfter
    }

    /// A 4xx that trying again will not fix. 401 (the inbox may not have our key yet),
    /// 408 (timeout) and 429 (rate limit) can pass.
    private static func isPermanent(status: Int) -> Bool {
        (400..<500).contains(status) && ![401, 408, 429].contains(status)
    }

    /// Reads a `Retry-After` value (RFC 9110 10.2.3): delay seconds or an HTTP-date.
    /// - Returns: The time it names, or `nil` when it is malformed.
    package static func retryAfter(_ value: String, now: Date) -> Date? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.allSatisfy(\.isASCIIDigit) {
            // Many digits are as good as forever; the caller caps at the horizon anyway.
            return now.addingTimeInterval(Double(text) ?? .greatestFiniteMagnitude)
        }
        return HTTPDate.parse(text)
    }

    private static func days(_ interval: TimeInterval) -> Int { Int((interval / 86_400).rounded()) }
}

extension Character {
    /// `0` to `9` only (not other Unicode digits).
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
