import Foundation
import GRDB

// What the processes of one node share: the tables `rate_limit_windows` and
// `scheduled_job_runs`, and the claims on queued work (WorkLease).

extension Transaction {
    /// What the processes of one node share: claims on queued work, rate-limit windows,
    /// scheduled jobs' turns.
    public var coordination: Coordination { Coordination(db: session) }
}

/// What the processes of one node share: claims on queued work, rate-limit windows,
/// scheduled jobs' turns.
public struct Coordination { let db: SQLSession }

extension Coordination {
    /// One window of a fixed-window rate limit, as counted so far.
    public struct Window: Sendable, Equatable {
        /// When the window started.
        public var startedAt: Date
        /// Hits counted in it, the current one included.
        public var hits: Int
    }

    /// Counts one hit under `key` in a fixed window of `length` seconds: a window older than
    /// that starts again at `now`. One statement, so concurrent processes never lose a hit.
    /// - Returns: The window with this hit counted.
    public func countHit(_ key: String, window length: TimeInterval, at now: Date) throws -> Window {
        let expired = now.addingTimeInterval(-length)
        let row = try Row.fetchOne(db, sql: """
            INSERT INTO rate_limit_windows(key, started_at, hits) VALUES (?, ?, 1)
            ON CONFLICT(key) DO UPDATE SET
              hits = CASE WHEN rate_limit_windows.started_at <= ? THEN 1 ELSE rate_limit_windows.hits + 1 END,
              started_at = CASE WHEN rate_limit_windows.started_at <= ? THEN excluded.started_at
                                ELSE rate_limit_windows.started_at END
            RETURNING started_at, hits
            """, arguments: [key, now, expired, expired])
        guard let row else { return Window(startedAt: now, hits: 1) }
        return Window(startedAt: row["started_at"], hits: row["hits"])
    }

    /// The current window under `key`, if one started less than `length` seconds ago.
    public func window(_ key: String, length: TimeInterval, at now: Date) throws -> Window? {
        let row = try Row.fetchOne(db, sql: "SELECT started_at, hits FROM rate_limit_windows WHERE key = ? AND started_at > ?",
                                   arguments: [key, now.addingTimeInterval(-length)])
        return row.map { Window(startedAt: $0["started_at"], hits: $0["hits"]) }
    }

    /// Forgets the window under `key` (a successful sign-in clears its failures).
    public func clearWindow(_ key: String) throws {
        try db.execute(sql: "DELETE FROM rate_limit_windows WHERE key = ?", arguments: [key])
    }

    /// Deletes windows that started before `cutoff` (all of them over).
    /// - Returns: How many were deleted.
    @discardableResult
    public func pruneWindows(startedBefore cutoff: Date) throws -> Int {
        try db.execute(sql: "DELETE FROM rate_limit_windows WHERE started_at < ?", arguments: [cutoff])
        return db.changesCount
    }

    /// Takes the turn of the scheduled job `name` when its last run (by any process) was at
    /// least `interval` seconds before `now`, and records this run. When several processes
    /// ask at once exactly one gets the turn: on PostgreSQL a transaction-scoped advisory lock
    /// per job turns the others away at once, and the conditional upsert decides even without it.
    /// - Returns: Whether the caller runs the job now.
    public func takeTurn(of name: String, every interval: TimeInterval, at now: Date) throws -> Bool {
        guard try db.tryHoldUntilCommit(job: name) else { return false }
        try db.execute(sql: """
            INSERT INTO scheduled_job_runs(name, last_run_at) VALUES (?, ?)
            ON CONFLICT(name) DO UPDATE SET last_run_at = excluded.last_run_at
            WHERE scheduled_job_runs.last_run_at <= ?
            """, arguments: [name, now, now.addingTimeInterval(-interval)])
        return db.changesCount == 1
    }

    /// Extends the claims `holder` holds on the work it is still doing (`WorkLease`): only
    /// these rows, so a claim an attempt failed to give back (a write that failed) runs out
    /// instead of being kept alive, and another attempt takes the work up.
    public func renewClaims(of holder: String, on work: [ClaimedWork.Queue: Set<Int64>], at now: Date) throws {
        guard db.isShared else { return }
        let until = WorkLease(holder: holder, from: now).until
        for (queue, ids) in work where !ids.isEmpty {
            try db.execute(sql: """
                UPDATE \(queue.rawValue) SET claimed_until = ?
                WHERE claimed_by = ? AND id IN (\(databaseQuestionMarks(count: ids.count)))
                """, arguments: [until, holder] + StatementArguments(Array(ids)))
        }
    }
}
