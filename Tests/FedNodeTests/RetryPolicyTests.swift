@testable import Core
import Foundation
import Signatures
import Testing

@testable import FedNode

/// `RetryPolicy`: what becomes of a delivery after each kind of answer, and when a domain is skipped.
@Suite struct RetryPolicyTests {
    let policy = RetryPolicy()
    let queued = Date(timeIntervalSince1970: 1_750_000_000)
    var now: Date { queued.addingTimeInterval(60) }

    private func decide(_ outcome: DeliveryOutcome, attempts: Int = 1, at now: Date? = nil, jitter: Double = 0) -> DeliveryDecision {
        policy.decide(attempts: attempts, firstQueuedAt: queued, outcome: outcome, now: now ?? self.now, jitter: jitter)
    }

    @Test(arguments: [200, 201, 202, 204])
    func successIsDelivered(status: Int) {
        #expect(decide(.response(status: status)) == .delivered)
    }

    @Test(arguments: [400, 403, 404, 405, 410, 413, 422])
    func clientErrorsGiveUp(status: Int) {
        guard case .giveUp(let reason) = decide(.response(status: status)) else {
            Issue.record("\(status) was not given up")
            return
        }
        #expect(reason.contains("\(status)"))
    }

    @Test(arguments: [401, 408, 429, 500, 502, 503, 504, 302])
    func passingFailuresRetry(status: Int) {
        #expect(decide(.response(status: status)) == .retry(at: now.addingTimeInterval(30)))
    }

    @Test func networkFailuresRetry() {
        #expect(decide(.networkFailure("timed out")) == .retry(at: now.addingTimeInterval(30)))
        #expect(decide(.networkFailure("cannot connect: refused")) == .retry(at: now.addingTimeInterval(30)))
    }

    @Test func refusedAddressAndUnsendableGiveUp() {
        #expect(decide(.refused("10.0.0.1")) == .giveUp(reason: "the inbox is at non-public address 10.0.0.1"))
        #expect(decide(.unsendable("no key")) == .giveUp(reason: "no key"))
    }

    @Test func aBusyAddressIsTriedAgainSoonAndSaysNothingOfTheDomain() {
        guard case .retry(let at) = decide(.deferred("192.0.2.7"), attempts: 5) else { Issue.record("not retried"); return }
        #expect(at.timeIntervalSince(now) == RetryPolicy.deferredDelay, "not the fifth attempt's backoff")
        #expect(policy.domainVerdict(for: .deferred("192.0.2.7")) == .unaffected)
        #expect(!DeliveryOutcome.deferred("192.0.2.7").counts && DeliveryOutcome.networkFailure("x").counts)
        let late = now.addingTimeInterval(policy.giveUpAfter + 1)
        guard case .giveUp = decide(.deferred("192.0.2.7"), at: late) else { Issue.record("kept past the horizon"); return }
    }

    @Test func backoffDoublesUpToTheCap() {
        let waits = (1...20).map { policy.backoff(attempts: $0, jitter: 0) }
        #expect(Array(waits.prefix(5)) == [30, 60, 120, 240, 480])
        #expect(zip(waits, waits.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(waits.last == TimeInterval(12 * 3600))
        #expect(policy.backoff(attempts: 1000, jitter: 0) == TimeInterval(12 * 3600))
    }

    @Test func jitterStaysWithinAQuarter() {
        for attempts in 1...20 {
            let plain = policy.backoff(attempts: attempts, jitter: 0)
            #expect(policy.backoff(attempts: attempts, jitter: -1) == plain * 0.75)
            #expect(policy.backoff(attempts: attempts, jitter: 1) == plain * 1.25)
            #expect(policy.backoff(attempts: attempts, jitter: 7) == plain * 1.25)
            for jitter in stride(from: -1.0, through: 1.0, by: 0.125) {
                let wait = policy.backoff(attempts: attempts, jitter: jitter)
                #expect(wait >= plain * 0.75 && wait <= plain * 1.25)
            }
        }
    }

    @Test func retryTimeFollowsAttemptsAndJitter() {
        #expect(decide(.response(status: 500), attempts: 3, jitter: 0.5) == .retry(at: now.addingTimeInterval(120 * 1.125)))
    }

    @Test func retryAfterSecondsIsHonoured() {
        #expect(decide(.response(status: 429, retryAfter: "120")) == .retry(at: now.addingTimeInterval(120)))
        #expect(decide(.response(status: 503, retryAfter: " 3600 ")) == .retry(at: now.addingTimeInterval(3600)))
        // Sooner than the backoff: the backoff wins.
        #expect(decide(.response(status: 429, retryAfter: "5")) == .retry(at: now.addingTimeInterval(30)))
    }

    @Test func retryAfterDateIsHonoured() {
        let later = now.addingTimeInterval(7200)
        #expect(decide(.response(status: 503, retryAfter: HTTPDate.format(later))) == .retry(at: later))
        let past = now.addingTimeInterval(-7200)
        #expect(decide(.response(status: 503, retryAfter: HTTPDate.format(past))) == .retry(at: now.addingTimeInterval(30)))
    }

    @Test(arguments: ["soon", "-5", "1.5", "", "Tuesday"])
    func malformedRetryAfterIsIgnored(value: String) {
        #expect(decide(.response(status: 429, retryAfter: value)) == .retry(at: now.addingTimeInterval(30)))
    }

    @Test func absurdRetryAfterStopsAtTheHorizon() {
        let horizon = queued.addingTimeInterval(7 * 86_400)
        #expect(decide(.response(status: 429, retryAfter: "31536000")) == .retry(at: horizon))
        #expect(decide(.response(status: 429, retryAfter: String(repeating: "9", count: 400))) == .retry(at: horizon))
        #expect(decide(.response(status: 503, retryAfter: "Fri, 01 Jan 2100 00:00:00 GMT")) == .retry(at: horizon))
    }

    @Test func givesUpAboutAWeekAfterQueueing() {
        let sixDays = queued.addingTimeInterval(6 * 86_400 + 23 * 3600)
        #expect(decide(.response(status: 500), attempts: 30, at: sixDays) == .retry(at: sixDays.addingTimeInterval(12 * 3600)))
        for outcome in [DeliveryOutcome.response(status: 500), .response(status: 429), .networkFailure("timed out")] {
            guard case .giveUp = decide(outcome, attempts: 31, at: queued.addingTimeInterval(7 * 86_400)) else {
                Issue.record("\(outcome) was retried after a week")
                continue
            }
        }
    }

    @Test func domainBecomesUnavailableAfterThreeDaysOfFailures() {
        let since = Date(timeIntervalSince1970: 1_750_000_000)
        #expect(!policy.shouldMarkUnavailable(failingSince: since, now: since))
        #expect(!policy.shouldMarkUnavailable(failingSince: since, now: since.addingTimeInterval(3 * 86_400 - 1)))
        #expect(policy.shouldMarkUnavailable(failingSince: since, now: since.addingTimeInterval(3 * 86_400)))
        #expect(policy.shouldMarkUnavailable(failingSince: since, now: since.addingTimeInterval(10 * 86_400)))
    }

    @Test func domainHealthReadsAnswersAsUp() {
        #expect(policy.domainVerdict(for: .response(status: 202)) == .reachable)
        #expect(policy.domainVerdict(for: .response(status: 410)) == .reachable)
        #expect(policy.domainVerdict(for: .response(status: 500)) == .failing)
        #expect(policy.domainVerdict(for: .response(status: 429)) == .failing)
        #expect(policy.domainVerdict(for: .networkFailure("timed out")) == .failing)
        #expect(policy.domainVerdict(for: .refused("127.0.0.1")) == .unaffected)
        #expect(policy.domainVerdict(for: .unsendable("no key")) == .unaffected)
    }
}
