@testable import Core
import Foundation
import Testing
@testable import FedNode

/// What becomes of a push after each kind of answer from the push service.
@Suite struct PushDecisionTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let policy = RetryPolicy(baseDelay: 30, jitterFraction: 0.25)

    func decide(_ outcome: DeliveryOutcome, attempts: Int = 1) -> PushDecision {
        PushDecision.decide(outcome: outcome, attempts: attempts, now: now, jitter: 0, policy: policy)
    }

    @Test func acceptedPushesAreDone() {
        #expect(decide(.response(status: 201)) == .delivered)
        #expect(decide(.response(status: 202)) == .delivered)
    }

    @Test func goneSubscriptionsAreRemoved() {
        #expect(decide(.response(status: 404)) == .removeSubscription)
        #expect(decide(.response(status: 410)) == .removeSubscription)
    }

    @Test func overloadAndNetworkFailuresRetryWithBackoffThenGiveUp() {
        #expect(decide(.response(status: 429)) == .retry(at: now.addingTimeInterval(30)))
        #expect(decide(.response(status: 503), attempts: 3) == .retry(at: now.addingTimeInterval(120)))
        #expect(decide(.networkFailure("connection refused"), attempts: 2) == .retry(at: now.addingTimeInterval(60)))
        guard case .drop = decide(.response(status: 500), attempts: PushDecision.maxAttempts) else {
            Issue.record("a push failing \(PushDecision.maxAttempts) times is not given up")
            return
        }
    }

    @Test func otherClientErrorsAndRefusedAddressesDropThePush() {
        guard case .drop = decide(.response(status: 400)), case .drop = decide(.response(status: 413)),
            case .drop = decide(.refused("10.0.0.1"))
        else {
            Issue.record("a permanent error is retried")
            return
        }
    }
}
