import Activity
import Foundation
import GRDB

/// The queries of the delivery worker over `delivery_queue` and `delivery_domains`: what is due,
/// what to probe, and how each attempt is recorded. Each call runs inside the caller's
/// transaction; the worker keeps every write small (one delivery per transaction).
public enum DeliveryQueue {
    /// Deliveries whose time has come, oldest first, skipping domains marked unavailable.
    /// - Parameters:
    ///   - now: The current time; rows with `next_attempt_at <= now` are due.
    ///   - limit: The most rows returned.
    ///   - db: An open database connection.
    /// - Returns: At most `limit` deliveries.
    /// - Throws: A GRDB `DatabaseError`.
    public static func due(at now: Date, limit: Int, in db: SQLSession) throws -> [Delivery] {
        try Delivery.fetchAll(
            db,
            sql: """
                SELECT * FROM delivery_queue
                WHERE next_attempt_at <= ?
                  AND domain NOT IN (SELECT domain FROM delivery_domains WHERE unavailable)
                ORDER BY next_attempt_at, id
                LIMIT ?
                """,
            arguments: [now, limit])
    }

    /// Due deliveries in round-robin order across domains: the oldest of every domain first,
    /// then the second oldest of every domain, and so on, so one domain's backlog never stands
    /// in front of another domain's work. Domains marked unavailable are skipped.
    /// - Parameters:
    ///   - now: The current time; rows with `next_attempt_at <= now` are due.
    ///   - perDomain: The most rows taken from one domain.
    ///   - limit: The most rows returned.
    ///   - after: The domain served last; the round starts with the domains sorting after it.
    ///   - domains: Domains to leave out (already at their cap of requests in flight).
    ///   - ids: Deliveries to leave out (already in flight).
    ///   - db: An open database connection.
    /// - Returns: At most `limit` deliveries, at most `perDomain` of each domain.
    /// - Throws: A GRDB `DatabaseError`.
    public static func fairDue(
        at now: Date, perDomain: Int, limit: Int, after: String? = nil, excludingDomains domains: Set<String> = [],
        excludingIds ids: Set<Int64> = [], in db: SQLSession
    ) throws -> [Delivery] {
        // The lists are JSON arguments, so the text takes only a few shapes and each is
        // prepared once per connection (a list of `?` per item made a new text at almost every refill).
        let domainList = domains.isEmpty ? "" : "AND domain NOT IN (\(BatchQuery.strings))"
        let idList = ids.isEmpty ? "" : "AND id NOT IN (\(BatchQuery.ids))"
        // Rows another process claimed (`WorkLease`) are its work in flight.
        let unclaimed = db.isShared ? "AND (claimed_until IS NULL OR claimed_until <= ?)" : ""
        var arguments: StatementArguments = db.isShared ? [now, now] : [now]
        if !domains.isEmpty { arguments += [BatchQuery.json(Array(domains))] }
        if !ids.isEmpty { arguments += [BatchQuery.json(ids)] }
        arguments += [perDomain, after ?? "", limit]
        // Rank within each domain over the (domain, next_attempt_at) index, without the payload;
        // the chosen rows are read whole afterwards.
        let picked = try Row.fetchAll(
            db,
            sql: """
                SELECT id FROM (
                  SELECT id, domain, ROW_NUMBER() OVER (PARTITION BY domain ORDER BY next_attempt_at, id) AS turn
                  FROM delivery_queue
                  WHERE next_attempt_at <= ? \(unclaimed)
                    AND domain NOT IN (SELECT domain FROM delivery_domains WHERE unavailable)
                    \(domainList) \(idList))
                WHERE turn <= ?
                ORDER BY turn, domain <= ?, domain
                LIMIT ?
                """,
            arguments: arguments
        ).map { $0["id"] as Int64 }
        let chosen = try BatchQuery.records(
            Delivery.self, db, picked, sql: "SELECT * FROM delivery_queue WHERE id IN (\(BatchQuery.ids))")
        let rows = Dictionary(uniqueKeysWithValues: chosen.map { ($0.id, $0) })
        return picked.compactMap { rows[$0] }
    }

    /// One due delivery (the oldest) for each unavailable domain that has not failed since
    /// `lastFailureBefore`, to find out whether the domain answers again.
    /// - Parameters:
    ///   - now: The current time; only due rows are probes.
    ///   - lastFailureBefore: Domains that failed after this time are left alone for now.
    ///   - limit: The most probes returned.
    ///   - db: An open database connection.
    /// - Returns: At most one delivery per domain, at most `limit` in all.
    /// - Throws: A GRDB `DatabaseError`.
    public static func probes(at now: Date, lastFailureBefore: Date, limit: Int, in db: SQLSession) throws -> [Delivery] {
        // A domain with a claimed delivery is being probed by another process (or this one).
        let unclaimed = db.isShared
            ? "AND NOT EXISTS (SELECT 1 FROM delivery_queue c WHERE c.domain = d.domain AND c.claimed_until > ?)" : ""
        return try Delivery.fetchAll(
            db,
            sql: """
                SELECT q.* FROM delivery_domains d
                JOIN delivery_queue q ON q.id = (
                  SELECT id FROM delivery_queue
                  WHERE domain = d.domain AND next_attempt_at <= ?
                  ORDER BY next_attempt_at, id LIMIT 1)
                WHERE d.unavailable AND (d.last_failure_at IS NULL OR d.last_failure_at <= ?) \(unclaimed)
                ORDER BY d.domain
                LIMIT ?
                """,
            arguments: db.isShared ? [now, lastFailureBefore, now, limit] : [now, lastFailureBefore, limit])
    }

    /// Removes a delivery that was delivered or given up. A row already gone is not an error.
    /// - Parameters:
    ///   - id: The delivery's id.
    ///   - db: An open write transaction.
    /// - Throws: A GRDB `DatabaseError`.
    public static func remove(_ id: Int64, in db: SQLSession) throws {
        try db.execute(cached: "DELETE FROM delivery_queue WHERE id = ?", arguments: [id])
    }

    /// Records a failed attempt and when to try again.
    /// - Parameters:
    ///   - id: The delivery's id.
    ///   - attempts: Attempts made so far, this one included.
    ///   - nextAttemptAt: Not before this time.
    ///   - status: The HTTP status of the attempt, `nil` when there was no response.
    ///   - error: What went wrong, for the admin.
    ///   - db: An open write transaction.
    /// - Throws: A GRDB `DatabaseError`.
    public static func reschedule(
        _ id: Int64, attempts: Int, nextAttemptAt: Date, status: Int?, error: String, in db: SQLSession
    ) throws {
        try db.execute(cached: """
            UPDATE delivery_queue SET attempts = ?, next_attempt_at = ?, last_status = ?, last_error = ?,
                                      claimed_by = NULL, claimed_until = NULL
            WHERE id = ?
            """, arguments: [attempts, nextAttemptAt, status, error, id])
    }

    /// Deletes the deliveries to unavailable domains that were queued at or before `cutoff`:
    /// they were skipped for so long that they are no longer worth sending.
    /// - Parameters:
    ///   - cutoff: Rows created at or before this time go.
    ///   - db: An open write transaction.
    /// - Returns: How many rows were deleted.
    /// - Throws: A GRDB `DatabaseError`.
    public static func dropExpired(queuedBefore cutoff: Date, in db: SQLSession) throws -> Int {
        // Cheap check first: nearly always no domain is unavailable, and then nothing is scanned.
        guard try DeliveryDomain.filter(Column("unavailable") == true).fetchCount(db) > 0 else { return 0 }
        try db.execute(
            sql: """
                DELETE FROM delivery_queue
                WHERE created_at <= ?
                  AND domain IN (SELECT domain FROM delivery_domains WHERE unavailable)
                """,
            arguments: [cutoff])
        return db.changesCount
    }

    /// How many deliveries are waiting, due or not.
    /// - Parameter db: An open database connection.
    /// - Returns: The number of rows in the queue.
    /// - Throws: A GRDB `DatabaseError`.
    public static func pendingCount(in db: SQLSession) throws -> Int {
        try Delivery.fetchCount(db)
    }
}

extension DeliveryDomain {
    /// The key a delivery to `url` is tracked under: the lowercased host, plus `:port` when the
    /// URL names one (the form `Delivery.enqueue` stores).
    /// - Parameter url: An inbox or actor URL.
    /// - Returns: The domain key, or `nil` when the URL has no host.
    public static func name(of url: String) -> String? {
        HostAuthority.of(url)
    }

    /// Records that `domain` answered: it is no longer failing and no longer unavailable. Only an
    /// existing row changes (domains get a row when they first fail), so calling this for every
    /// activity received from a domain costs nothing for healthy ones.
    /// - Parameters:
    ///   - domain: The domain key (see `name(of:)`).
    ///   - now: When it answered.
    ///   - db: An open write transaction.
    /// - Returns: `true` when the domain was marked unavailable until now, so its skipped
    ///   deliveries are due again.
    /// - Throws: A GRDB `DatabaseError`.
    @discardableResult
    public static func markAvailable(_ domain: String, at now: Date, in db: SQLSession) throws -> Bool {
        // Called after every successful delivery: two statements prepared once per connection,
        // and for a domain that never failed (no row) only the first runs.
        guard let wasUnavailable = try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT unavailable FROM delivery_domains WHERE domain = ?"), arguments: [domain])
        else { return false }
        try db.execute(
            cached: "UPDATE delivery_domains SET failing_since = NULL, unavailable = 0, last_success_at = ? WHERE domain = ?",
            arguments: [now, domain])
        return wasUnavailable
    }

    /// Records a failed delivery to `domain`, starting its run of failures if none is running.
    /// - Parameters:
    ///   - domain: The domain key.
    ///   - now: When the attempt failed.
    ///   - db: An open write transaction.
    ///   - markUnavailable: Decides, from the start of the run of failures, whether the domain
    ///     has failed long enough to be skipped (`RetryPolicy` decides this in the node).
    /// - Returns: `true` when this failure made the domain unavailable.
    /// - Throws: A GRDB `DatabaseError`.
    @discardableResult
    public static func recordFailure(
        _ domain: String, at now: Date, in db: SQLSession, markUnavailable: (_ failingSince: Date) -> Bool
    ) throws -> Bool {
        var health = try DeliveryDomain.fetchOne(db, key: domain) ?? DeliveryDomain(domain: domain)
        let wasUnavailable = health.unavailable
        let failingSince = health.failingSince ?? now
        health.failingSince = failingSince
        health.lastFailureAt = now
        if markUnavailable(failingSince) { health.unavailable = true }
        try health.save(db)
        return !wasUnavailable && health.unavailable
    }
}
