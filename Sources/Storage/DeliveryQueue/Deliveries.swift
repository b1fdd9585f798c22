import Foundation
import GRDB

// Outbound activities and their delivery: the tables `outbox_activities`, `delivery_queue`
// (DeliveryQueue, Delivery) and `delivery_domains` (the health of remote domains).

extension Transaction {
    /// Outbound activities, the delivery queue and the health of remote domains.
    public var deliveries: Deliveries { Deliveries(db: session) }
}

/// Outbound activities, the delivery queue and the health of remote domains.
public struct Deliveries { let db: SQLSession }

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

    /// Claims deliveries for `holder` before they are sent, when other processes share the
    /// database (`WorkLease`): rows another process is claiming at this moment are skipped
    /// rather than waited for (`FOR UPDATE SKIP LOCKED`), rows it claimed are left to it, and
    /// rows no longer due (another process failed them meanwhile: their backoff) are left too.
    /// - Returns: The ids this process may send; on SQLite, all of them.
    public func claim(_ ids: [Int64], holder: String, at now: Date) throws -> Set<Int64> {
        guard db.isShared, !ids.isEmpty else { return Set(ids) }
        let marks = databaseQuestionMarks(count: ids.count)
        let free = try Int64.fetchAll(db, sql: """
            SELECT id FROM delivery_queue
            WHERE id IN (\(marks)) AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?)
            FOR UPDATE SKIP LOCKED
            """, arguments: StatementArguments(ids) + [now, now])
        guard !free.isEmpty else { return [] }
        try WorkLease(holder: holder, from: now).claim(free, of: .deliveries, in: db)
        return Set(free)
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
        // Every accepted activity asks this on the single writer: one statement prepared once
        // per connection (the query interface prepared it at every call: 29 % of the accept
        // path's samples), and for a domain that never failed (no row) nothing more.
        let failing = try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT unavailable <> 0 OR failing_since IS NOT NULL FROM delivery_domains WHERE domain = ?"), arguments: [domain])
        guard failing == true else { return false }
        return try DeliveryDomain.markAvailable(domain, at: now, in: db)
    }

    /// Records a failed delivery to `domain` (see `DeliveryDomain.recordFailure`).
    /// - Returns: `true` when this failure made the domain unavailable.
    @discardableResult
    public func recordFailure(_ domain: String, at now: Date, markUnavailable: (_ failingSince: Date) -> Bool) throws -> Bool {
        try DeliveryDomain.recordFailure(domain, at: now, in: db, markUnavailable: markUnavailable)
    }

    /// How many of `accountId`'s Create and Announce activities of public and unlisted posts
    /// its outbox collection holds.
    public func outboxCount(of accountId: Int64) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) \(Self.outbox)", arguments: [accountId]) ?? 0
    }

    /// One page of that outbox, newest first: at most `limit` entries with ids below `maxId`.
    public func outboxPage(of accountId: Int64, before maxId: Int64, limit: Int) throws -> [OutboxEntry] {
        let rows = try Row.fetchAll(db, sql: "SELECT o.id, o.type, o.payload, o.post_id \(Self.outbox) AND o.id < ? ORDER BY o.id DESC LIMIT ?",
                                    arguments: [accountId, maxId, limit])
        return rows.map { OutboxEntry(id: $0["id"], type: $0["type"], payload: $0["payload"], postId: $0["post_id"]) }
    }

    private static let outbox = """
        FROM outbox_activities o JOIN posts p ON p.id = o.post_id
        WHERE o.account_id = ? AND o.type IN ('Create', 'Announce') AND p.visibility IN ('public', 'unlisted')
        """

    /// Drops the queued deliveries of the activity `activityURI` that were not sent yet.
    public func cancelQueued(activityURI: String) throws {
        try db.execute(cached: "DELETE FROM delivery_queue WHERE activity_uri = ?", arguments: [activityURI])
    }

    /// Drops every queued delivery signed by `accountId` (a deleted account's posts, likes and
    /// follows that were not sent yet).
    public func cancelQueued(signer accountId: Int64) throws {
        try db.execute(cached: "DELETE FROM delivery_queue WHERE account_id = ?", arguments: [accountId])
    }
}

/// One stored outbound activity as the outbox collection lists it.
public struct OutboxEntry: Sendable, Equatable {
    /// The row's id (the page cursor).
    public var id: Int64
    /// ActivityStreams type (`Create` or `Announce`).
    public var type: String
    /// The activity JSON as delivered.
    public var payload: Data
    /// The post concerned, if any.
    public var postId: Int64?
}

extension Deliveries {
    /// Makes every queued delivery (to `domain` only, when given) due at `now` and marks the
    /// domain(s) available again: the operator's "retry now" after a remote server came back.
    /// - Returns: How many deliveries were rescheduled.
    public func retryNow(domain: String?, at now: Date) throws -> Int {
        if let domain {
            try db.execute(cached: "UPDATE delivery_queue SET next_attempt_at = ? WHERE domain = ?", arguments: [now, domain])
            let changed = db.changesCount
            try db.execute(cached: "UPDATE delivery_domains SET unavailable = 0, failing_since = NULL WHERE domain = ?", arguments: [domain])
            return changed
        }
        try db.execute(cached: "UPDATE delivery_queue SET next_attempt_at = ?", arguments: [now])
        let changed = db.changesCount
        try db.execute(cached: "UPDATE delivery_domains SET unavailable = 0, failing_since = NULL")
        return changed
    }

    /// How many deliveries wait, by state (see `DeliveryQueueDepth.read`).
    public func depth(at now: Date) throws -> DeliveryQueueDepth { try DeliveryQueueDepth.read(at: now, in: db) }
}

extension Deliveries {
    /// Calls `onChange` after every transaction, of any process, that queued deliveries, when
    /// several processes share the database; `nil` on SQLite, where the queuing process wakes
    /// its worker itself.
    public static func observeQueue(in database: NodeDatabase, onChange: @escaping @Sendable () -> Void) -> ChangeObservation? {
        database.isShared ? database.observe(table: Delivery.databaseTableName, onChange: onChange) : nil
    }
}
