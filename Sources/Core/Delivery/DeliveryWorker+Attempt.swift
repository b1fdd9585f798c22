import Foundation
import Logging
import Signatures
import Storage

extension DeliveryWorker {
    /// Sends one delivery, decides its fate with `RetryPolicy` and stores it.
    /// - Parameters:
    ///   - delivery: The queued row.
    ///   - signer: Its account's signer, `nil` when the account has no usable key.
    /// - Returns: Where the delivery went.
    package func attempt(_ delivery: Delivery, signer: RequestSigner?) async -> AttemptResult {
        guard let outcome = await send(delivery, signer: signer) else {
            node.metrics.delivery.attempted(.interrupted, domain: delivery.domain)
            return AttemptResult(disposition: .interrupted)
        }
        let now = self.now()
        let attempts = delivery.attempts + (outcome.counts ? 1 : 0)
        let decision = policy.decide(
            attempts: attempts, firstQueuedAt: delivery.createdAt, outcome: outcome, now: now,
            jitter: .random(in: -1...1))
        do {
            let health = try await record(decision, of: outcome, for: delivery, attempts: attempts, now: now)
            log(decision, outcome: outcome, health: health, delivery: delivery, attempts: attempts)
            node.metrics.delivery.attempted(decision.metricsOutcome, domain: delivery.domain)
            return AttemptResult(disposition: decision.disposition, revivedDomain: health == .revived)
        } catch {
            node.metrics.delivery.attempted(.interrupted, domain: delivery.domain)
            logger(for: delivery, attempts: attempts, outcome: outcome)
                .error("cannot record a delivery attempt", metadata: ["error": "\(error)"])
            return AttemptResult(disposition: .interrupted)
        }
    }

    /// The node's logger with the attempt's inbox, domain, activity, attempts and status.
    private func logger(for delivery: Delivery, attempts: Int, outcome: DeliveryOutcome) -> Logger {
        var logger = node.logger
        logger[metadataKey: "inbox"] = "\(delivery.inboxUrl)"
        logger[metadataKey: "domain"] = "\(delivery.domain)"
        logger[metadataKey: "activity"] = "\(delivery.activityUri)"
        logger[metadataKey: "attempts"] = "\(attempts)"
        if let status = outcome.status { logger[metadataKey: "status"] = "\(status)" }
        return logger
    }

    /// Signs and POSTs the delivery's payload.
    /// - Returns: The outcome, or `nil` when the send was cancelled (shutdown) and proves nothing.
    private func send(_ delivery: Delivery, signer: RequestSigner?) async -> DeliveryOutcome? {
        guard let signer else { return .unsendable("account \(delivery.accountId) has no usable signing key") }
        var request: HTTPClientRequest
        do {
            request = try SignedRequest.make(
                method: "POST", url: delivery.inboxUrl, body: Array(delivery.payload), signer: signer, now: now())
        } catch {
            return .unsendable("\(error)")
        }
        // The status line is the answer: a 2xx whose body never comes is still delivered.
        request.statusIsEnough = true
        do {
            let response = try await httpClient.execute(request)
            return .response(status: response.status, retryAfter: response.header("Retry-After"),
                             excerpt: Self.excerpt(of: response.body))
        } catch {
            switch error {
            case .cancelled: return nil
            case .blockedAddress(let address): return .refused(address)
            case .invalidURL(let url): return .unsendable("invalid inbox URL \(url)")
            case .timedOut: return .networkFailure("timed out")
            case .addressBusy(let address): return .deferred(address)
            case .connectFailed(let reason): return .networkFailure("cannot connect: \(reason)")
            case .transport(let reason): return .networkFailure(reason)
            case .responseTooLarge: return .networkFailure("response too large")
            case .tooManyRedirects: return .networkFailure("too many redirects")
            }
        }
    }

    /// The first bytes of an answer, printable, for a log line.
    package static func excerpt(of body: [UInt8]) -> String {
        String(decoding: body.prefix(200), as: UTF8.self).map { $0.isNewline || $0 == "\t" ? " " : $0 }.reduce(into: "") { $0.append($1) }
    }

    /// What an attempt changed about its domain's health.
    package enum HealthChange: Sendable, Equatable {
        /// Nothing worth a log line.
        case none
        /// The domain was unavailable and answered.
        case revived
        /// The domain has now failed long enough to be skipped.
        case madeUnavailable
    }

    /// Stores the decision and the domain's health in one small transaction.
    private func record(
        _ decision: DeliveryDecision, of outcome: DeliveryOutcome, for delivery: Delivery, attempts: Int, now: Date
    ) async throws -> HealthChange {
        let verdict = policy.domainVerdict(for: outcome)
        let policy = self.policy
        return try await node.database.writeBookkeeping { db -> HealthChange in
            switch decision {
            case .delivered, .giveUp:
                try db.deliveries.remove(delivery.id)
            case .retry(let at):
                try db.deliveries.reschedule(
                    delivery.id, attempts: attempts, nextAttemptAt: at, status: outcome.status,
                    error: outcome.summary)
            }
            switch verdict {
            case .reachable:
                return try db.deliveries.markAvailable(delivery.domain, at: now) ? .revived : .none
            case .failing:
                let madeUnavailable = try db.deliveries.recordFailure(delivery.domain, at: now) {
                    policy.shouldMarkUnavailable(failingSince: $0, now: now)
                }
                return madeUnavailable ? .madeUnavailable : .none
            case .unaffected:
                return .none
            }
        }
    }

    private func log(_ decision: DeliveryDecision, outcome: DeliveryOutcome, health: HealthChange, delivery: Delivery, attempts: Int) {
        // Most attempts are plain deliveries, logged at debug: their metadata is built only
        // when that line is written.
        if case .delivered = decision, health == .none, node.logger.logLevel > .debug { return }
        let logger = logger(for: delivery, attempts: attempts, outcome: outcome)
        switch decision {
        case .delivered:
            logger.debug("delivered")
        case .retry(let at):
            logger.info("delivery failed, will retry", metadata: ["error": "\(outcome.summary)", "retryAt": "\(at)"])
        case .giveUp(let reason):
            logger.notice("gave up delivery", metadata: ["reason": "\(reason)"])
        }
        switch health {
        case .none: break
        case .revived: logger.notice("domain available again")
        case .madeUnavailable: logger.warning("domain marked unavailable after failing for days; skipping it")
        }
    }
}

extension DeliveryDecision {
    /// How `fednode_delivery_attempts_total` counts this decision.
    fileprivate var metricsOutcome: DeliveryMetrics.Outcome {
        switch self {
        case .delivered: .delivered
        case .retry: .retry
        case .giveUp: .gaveUp
        }
    }

    /// Where a delivery goes after this decision.
    fileprivate var disposition: AttemptResult.Disposition {
        switch self {
        case .delivered: .delivered
        case .retry: .retried
        case .giveUp: .givenUp
        }
    }
}
