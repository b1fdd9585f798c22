import Foundation
import GRDB

extension Deliveries {
    /// Stores an activity in its sender's outbox; an activity already there is left as it is.
    public func addToOutbox(_ activity: OutboxActivity) throws { try activity.insert(db, onConflict: .ignore) }

    /// Queues one delivery of `payload` per distinct inbox, skipping repeats and blocked
    /// domains (see `Delivery.enqueue`).
    /// - Returns: How many deliveries were queued.
    @discardableResult
    public func enqueue(activityUri: String, payload: Data, accountId: Int64, inboxes: [String]) throws -> Int {
        try Delivery.enqueue(activityUri: activityUri, payload: payload, accountId: accountId, inboxes: inboxes, in: db)
    }

    /// Due deliveries in round-robin order across domains (see `DeliveryQueue.fairDue`).
    public func fairDue(
        at now: Date, perDomain: Int, limit: Int, after: String? = nil, excludingDomains domains: Set<String> = [],
        excludingIds ids: Set<Int64> = []
    ) throws -> [Delivery] {
        try DeliveryQueue.fairDue(
            at: now, perDomain: perDomain, limit: limit, after: after, excludingDomains: domains, excludingIds: ids, in: db)
    }

    /// One due delivery per unavailable domain that has not failed since `lastFailureBefore`,
    /// at most `limit` (see `DeliveryQueue.probes`).
    public func probes(at now: Date, lastFailureBefore: Date, limit: Int) throws -> [Delivery] {
        try DeliveryQueue.probes(at: now, lastFailureBefore: lastFailureBefore, limit: limit, in: db)
    }

    /// Removes delivery `id` (delivered or given up); a row already gone is not an error.
    public func remove(_ id: Int64) throws { try DeliveryQueue.remove(id, in: db) }

    /// Records a failed attempt of delivery `id` and when to try again.
    public func reschedule(_ id: Int64, attempts: Int, nextAttemptAt: Date, status: Int?, error: String) throws {
        try DeliveryQueue.reschedule(id, attempts: attempts, nextAttemptAt: nextAttemptAt, status: status, error: error, in: db)
    }

    /// Deletes the deliveries to unavailable domains queued at or before `cutoff`.
    /// - Returns: How many were deleted.
    public func dropExpired(queuedBefore cutoff: Date) throws -> Int {
        try DeliveryQueue.dropExpired(queuedBefore: cutoff, in: db)
    }

    /// Records that `domain` answered (see `DeliveryDomain.markAvailable`).
    /// - Returns: `true` when it was unavailable until now.
    @discardableResult
    public func markAvailable(_ domain: String, at now: Date) throws -> Bool {
        try DeliveryDomain.markAvailable(domain, at: now, in: db)
    }

    /// Records that `domain` answered when it is failing or unavailable; healthy domains cost
    /// one primary-key lookup and no write.
    /// - Returns: `true` when it was unavailable until now, so its skipped deliveries are due again.
    public func markAvailableIfFailing(_ domain: String, at now: Date) throws -> Bool {
        guard let health = try DeliveryDomain.fetchOne(db, key: domain), health.unavailable || health.failingSince != nil else {
            return false
        }
        return try DeliveryDomain.markAvailable(domain, at: now, in: db)
    }

    /// Records a failed delivery to `domain` (see `DeliveryDomain.recordFailure`).
    /// - Returns: `true` when this failure made the domain unavailable.
    @discardableResult
    public func recordFailure(_ domain: String, at now: Date, markUnavailable: (_ failingSince: Date) -> Bool) throws -> Bool {
        try DeliveryDomain.recordFailure(domain, at: now, in: db, markUnavailable: markUnavailable)
    }
}
