import Foundation
import GRDB

/// The queries of the inbox worker over `inbox_queue`: which items may start, the durable
/// attempt count taken before a handler runs, and how an attempt ends (done, retried, parked).
/// Each call runs inside the caller's transaction.
public enum InboxQueue {
    /// The light part of a queued item, enough to schedule it.
    public struct Candidate: Sendable, Equatable, FetchableRecord {
        /// The item's id (arrival order).
        public var id: Int64
        /// The verified signer: items of one actor are processed one at a time, in order.
        public var actorUri: String
        /// The signer's domain (host[:port]): its items in flight are capped.
        public var domain: String
        /// Attempts started without finishing (each one a process that died mid-attempt).
        public var unfinishedAttempts: Int

        /// Creates a candidate (the worker reads them with `candidates(at:...)`).
        public init(id: Int64, actorUri: String, domain: String, unfinishedAttempts: Int) {
            self.id = id
            self.actorUri = actorUri
            self.domain = domain
            self.unfinishedAttempts = unfinishedAttempts
        }

        /// Reads the columns `candidates(at:...)` selects, by position: the worker reads a window
        /// of candidates at every refill, four times the items it may start.
        public init(row: Row) {
            self.init(id: row[0], actorUri: row[1], domain: row[2], unfinishedAttempts: row[3])
        }
    }

    /// Due, unparked items in arrival order, leaving out the actors and domains given.
    /// - Parameters:
    ///   - now: Items with `available_at <= now` are due.
    ///   - actors: Actors with an item in flight (their next item waits for it).
    ///   - domains: Domains already at their cap of items in flight.
    ///   - limit: The most candidates returned.
    ///   - db: An open database connection.
    /// - Returns: At most `limit` candidates, oldest first.
    /// - Throws: A GRDB `DatabaseError`.
    public static func candidates(
        at now: Date, excludingActors actors: Set<String>, excludingDomains domains: Set<String>, limit: Int, in db: SQLSession
    ) throws -> [Candidate] {
        // Constant SQL, the lists passed as JSON, so the statement is prepared once per
        // connection rather than at every refill.
        // Claimed rows, and every row of an actor with a claimed row, are another process's
        // (or this one's) work in flight; claims that ran out are free again.
        let unclaimed = db.isShared ? """
            AND (claimed_until IS NULL OR claimed_until <= ?)
            AND actor_uri NOT IN (SELECT actor_uri FROM inbox_queue WHERE claimed_until > ?)
            """ : ""
        var arguments: StatementArguments = db.isShared ? [now, now, now] : [now]
        arguments += [BatchQuery.json(Array(actors)), BatchQuery.json(Array(domains)), limit]
        return try Candidate.fetchAll(
            db.cachedStatement(sql: """
                SELECT id, actor_uri, domain, unfinished_attempts FROM inbox_queue
                WHERE available_at <= ? AND parked_at IS NULL \(unclaimed)
                  AND actor_uri NOT IN (\(BatchQuery.strings)) AND domain NOT IN (\(BatchQuery.strings))
                ORDER BY id LIMIT ?
                """),
            arguments: arguments)
    }

    /// Counts an attempt as started before the handler runs, so a process that dies during
    /// the attempt leaves a trace; with `lease`, claims the item for this process.
    /// - Parameters:
    ///   - id: The item's id.
    ///   - lease: The claim (several processes share the database), or `nil`.
    ///   - now: Claims that ran out before it are void.
    ///   - db: An open write transaction; with a lease it holds `ProcessLock.inboxClaims`.
    /// - Returns: The item with its raised count, or `nil` when it is gone, parked, claimed,
    ///   or another item of its actor is claimed.
    /// - Throws: A GRDB `DatabaseError`.
    static func claim(_ id: Int64, lease: WorkLease?, at now: Date, in db: SQLSession) throws -> InboxItem? {
        if let lease {
            try db.execute(
                cached: """
                    UPDATE inbox_queue SET unfinished_attempts = unfinished_attempts + 1, claimed_by = ?, claimed_until = ?
                    WHERE id = ? AND parked_at IS NULL AND available_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?)
                      AND NOT EXISTS (SELECT 1 FROM inbox_queue other WHERE other.actor_uri = inbox_queue.actor_uri
                                        AND other.id <> inbox_queue.id AND other.claimed_until > ?)
                    """,
                arguments: [lease.holder, lease.until, id, now, now, now])
        } else {
            try db.execute(
                cached: "UPDATE inbox_queue SET unfinished_attempts = unfinished_attempts + 1 WHERE id = ? AND parked_at IS NULL",
                arguments: [id])
        }
        guard db.changesCount == 1 else { return nil }
        return try InboxItem.fetchOne(db.cachedStatement(sql: "SELECT * FROM inbox_queue WHERE id = ?"), arguments: [id])
    }

    /// Removes a finished item and records its outcome against its activity id.
    /// - Parameters:
    ///   - item: The item.
    ///   - outcome: `processed`, `ignored` or `refused`.
    ///   - db: An open write transaction.
    /// - Throws: A GRDB `DatabaseError`.
    public static func finish(_ item: InboxItem, outcome: String, in db: SQLSession) throws {
        try db.execute(cached: "DELETE FROM inbox_queue WHERE id = ?", arguments: [item.id])
        if let id = item.activityId {
            try db.execute(cached: "UPDATE seen_activities SET outcome = ? WHERE uri = ?", arguments: [outcome, id])
        }
    }

    /// Records a failed attempt that ended (the process lived) and when to try again.
    /// - Parameters:
    ///   - id: The item's id.
    ///   - attempts: Failed attempts so far, this one included.
    ///   - availableAt: Not before this time.
    ///   - error: What went wrong, for the admin.
    ///   - db: An open write transaction.
    /// - Throws: A GRDB `DatabaseError`.
    public static func reschedule(_ id: Int64, attempts: Int, availableAt: Date, error: String, in db: SQLSession) throws {
        try db.execute(
            sql: """
                UPDATE inbox_queue SET attempts = ?, available_at = ?, last_error = ?, unfinished_attempts = 0,
                                       claimed_by = NULL, claimed_until = NULL
                WHERE id = ?
                """,
            arguments: [attempts, availableAt, error, id])
    }

    /// Takes back the count of an attempt that was interrupted by an orderly shutdown.
    /// - Parameters:
    ///   - id: The item's id.
    ///   - db: An open write transaction.
    /// - Throws: A GRDB `DatabaseError`.
    public static func release(_ id: Int64, in db: SQLSession) throws {
        try db.execute(
            sql: """
                UPDATE inbox_queue SET unfinished_attempts = max(unfinished_attempts - 1, 0), claimed_by = NULL, claimed_until = NULL
                WHERE id = ?
                """,
            arguments: [id])
    }

    /// Takes an item out of processing, keeping it for the admin.
    /// - Parameters:
    ///   - id: The item's id.
    ///   - reason: Why, stored as its last error.
    ///   - now: When.
    ///   - db: An open write transaction.
    /// - Throws: A GRDB `DatabaseError`.
    public static func park(_ id: Int64, reason: String, at now: Date, in db: SQLSession) throws {
        try db.execute(cached: "UPDATE inbox_queue SET parked_at = ?, last_error = ?, claimed_by = NULL, claimed_until = NULL WHERE id = ?",
                       arguments: [now, reason, id])
        try db.execute(
            sql: "UPDATE seen_activities SET outcome = 'parked' WHERE uri = (SELECT activity_id FROM inbox_queue WHERE id = ?)",
            arguments: [id])
    }

    /// The parked items, oldest first.
    /// - Parameters:
    ///   - limit: The most rows returned.
    ///   - db: An open database connection.
    /// - Returns: The parked items.
    /// - Throws: A GRDB `DatabaseError`.
    public static func parked(limit: Int = 1000, in db: SQLSession) throws -> [InboxItem] {
        try InboxItem.filter(Column("parked_at") != nil).order(Column("id")).limit(limit).fetchAll(db)
    }

    /// Puts a parked item back in the queue with fresh counts, due now.
    /// - Parameters:
    ///   - id: The item's id.
    ///   - now: When it becomes due.
    ///   - db: An open write transaction.
    /// - Returns: Whether a parked item with that id existed.
    /// - Throws: A GRDB `DatabaseError`.
    public static func unpark(_ id: Int64, at now: Date, in db: SQLSession) throws -> Bool {
        try db.execute(
            sql: """
                UPDATE inbox_queue SET parked_at = NULL, attempts = 0, unfinished_attempts = 0, available_at = ?,
                                       claimed_by = NULL, claimed_until = NULL
                WHERE id = ? AND parked_at IS NOT NULL
                """,
            arguments: [now, id])
        guard db.changesCount == 1 else { return false }
        try db.execute(
            sql: "UPDATE seen_activities SET outcome = 'queued' WHERE uri = (SELECT activity_id FROM inbox_queue WHERE id = ?)",
            arguments: [id])
        return true
    }
}
