import Foundation
import GRDB
import Synchronization

/// Group commit for small writes: concurrent callers' changes share one transaction, each
/// inside its own savepoint, so one commit (and its sync: `synchronous = FULL` on SQLite, the
/// WAL flush on PostgreSQL) acknowledges them all, and one commit's WAL frames and locks serve
/// them all. A caller whose changes throw rolls back only its savepoint and gets its error; the
/// others still commit. Nobody is answered before the commit that holds their changes has
/// happened (durably, except in bookkeeping groups, which do not wait for the sync).
///
/// A commit costs the single writer about half a millisecond here (its WAL pages and the sync;
/// docs/benchmarks-history.md), so a transaction per inbox activity would cap acceptance at a few
/// thousand a second with nothing else written; under 64 concurrent senders a group holds dozens.
final class GroupCommit: Sendable {
    /// Runs one transaction around `changes` (the engine's write, durable or not).
    typealias Transact = @Sendable (_ changes: @escaping @Sendable (SQLSession) -> Void) async throws -> Void

    /// One caller's changes and how to answer it.
    private struct Job: Sendable {
        /// Applies the changes inside the shared transaction, remembering their own outcome.
        let run: @Sendable (SQLSession) -> Void
        /// Answers the caller once the shared transaction ended (`nil`: it committed).
        let finish: @Sendable ((any Error)?) -> Void
    }

    private let transact: Transact
    private let state = Mutex<(pending: [Job], leading: Bool)>(([], false))
    /// The most callers one transaction takes.
    private let maxGroup: Int
    /// Whether, when a group's transaction fails as a whole, each of its callers is tried again
    /// in a transaction of its own rather than all getting the group's error.
    private let retriesAlone: Bool
    /// Told how many callers each committed transaction held (the node's metrics).
    private let observer: (@Sendable (_ groupSize: Int) -> Void)?

    private init(maxGroup: Int = 256, retriesAlone: Bool = false, observer: (@Sendable (_ groupSize: Int) -> Void)?,
                 transact: @escaping Transact) {
        self.maxGroup = maxGroup
        self.retriesAlone = retriesAlone
        self.transact = transact
        self.observer = observer
    }

    /// Groups on SQLite's one writer: committed with `synchronous = FULL` (acknowledged
    /// writes) or, not `durable`, with `NORMAL` (queue bookkeeping, see
    /// `NodeDatabase.writeBookkeeping`).
    static func sqlite(_ pool: DatabasePool, durable: Bool, observer: (@Sendable (_ groupSize: Int) -> Void)?) -> GroupCommit {
        GroupCommit(observer: observer) { changes in
            if durable {
                try await pool.write { db in changes(SQLSession(db)) }
            } else {
                try await pool.writeWithoutTransaction { db in
                    try db.execute(cached: "PRAGMA synchronous = NORMAL")
                    defer { try? db.execute(cached: "PRAGMA synchronous = FULL") }
                    try db.inTransaction {
                        changes(SQLSession(db))
                        return .commit
                    }
                }
            }
        }
    }

    /// Groups on PostgreSQL, whose writes are serialised within the process as SQLite's are: a
    /// transaction per group instead of one per caller, waiting for the WAL flush. At most 32
    /// callers: each is a subtransaction, and past 64 in one transaction PostgreSQL's
    /// subtransaction cache overflows, which slows every other session's snapshots. Other
    /// processes on the database lock rows in their own orders, so two groups can deadlock where
    /// single writes would have waited: PostgreSQL then aborts one, and its callers are tried
    /// again one transaction each.
    static func postgres(_ engine: PostgresEngine, observer: (@Sendable (_ groupSize: Int) -> Void)?) -> GroupCommit {
        GroupCommit(maxGroup: 32, retriesAlone: true, observer: observer) { changes in
            try await engine.transaction(write: true) { session in changes(session) }
        }
    }

    /// Applies `updates` in the next group transaction and returns once it is committed.
    func write<T: Sendable>(_ updates: @escaping @Sendable (SQLSession) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let outcome = Mutex<Result<T, any Error>?>(nil)
            let job = Job(
                run: { session in
                    outcome.withLock { $0 = Result { try session.inSavepoint { try updates(session) } } }
                },
                finish: { commitError in
                    if let commitError { continuation.resume(throwing: commitError); return }
                    continuation.resume(with: outcome.withLock { $0 } ?? .failure(DatabaseError(message: "grouped write never ran")))
                })
            let lead = state.withLock { state -> Bool in
                state.pending.append(job)
                guard !state.leading else { return false }
                state.leading = true
                return true
            }
            if lead { Task { await self.drain() } }
        }
    }

    /// Commits groups until nobody is waiting.
    private func drain() async {
        while true {
            let jobs = state.withLock { state -> [Job] in
                let jobs = Array(state.pending.prefix(maxGroup))
                state.pending.removeFirst(jobs.count)
                if jobs.isEmpty { state.leading = false }
                return jobs
            }
            guard !jobs.isEmpty else { return }
            do {
                try await transact { session in
                    for job in jobs { job.run(session) }
                }
                observer?(jobs.count)
                for job in jobs { job.finish(nil) }
            } catch {
                guard retriesAlone, jobs.count > 1 else {
                    for job in jobs { job.finish(error) }
                    continue
                }
                // The group's own failure (a deadlock with another process, a failed commit):
                // each caller's changes alone, as if it had never been grouped.
                for job in jobs {
                    do {
                        try await transact { session in job.run(session) }
                        observer?(1)
                        job.finish(nil)
                    } catch {
                        job.finish(error)
                    }
                }
            }
        }
    }
}
