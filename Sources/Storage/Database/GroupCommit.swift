import Foundation
import GRDB
import Synchronization

/// Group commit for small writes: concurrent callers' changes share one transaction, each
/// inside its own savepoint, so one fsync (`synchronous = FULL`) acknowledges them all, and
/// one commit's WAL frames and locks serve them all.
/// A caller whose changes throw rolls back only its savepoint and gets its error; the others
/// still commit. Nobody is answered before the commit that holds their changes is durable.
///
/// With one fsync costing milliseconds, a transaction per inbox activity caps acceptance at a
/// few hundred per second; under 64 concurrent senders a group holds dozens of them.
final class GroupCommit: Sendable {
    /// One caller's changes and how to answer it.
    private struct Job: Sendable {
        /// Applies the changes inside the shared transaction, remembering their own outcome.
        let run: @Sendable (Database) -> Void
        /// Answers the caller once the shared transaction ended (`nil`: it committed).
        let finish: @Sendable ((any Error)?) -> Void
    }

    private let pool: DatabasePool
    /// Whether groups commit with `synchronous = FULL` (acknowledged writes) or `NORMAL`
    /// (queue bookkeeping, see `NodeDatabase.writeBookkeeping`).
    private let durable: Bool
    private let state = Mutex<(pending: [Job], leading: Bool)>(([], false))
    /// The most callers one transaction takes.
    private let maxGroup = 256
    /// Told how many callers each committed transaction held (the node's metrics).
    private let observer: (@Sendable (_ groupSize: Int) -> Void)?

    init(pool: DatabasePool, durable: Bool = true, observer: (@Sendable (_ groupSize: Int) -> Void)? = nil) {
        self.pool = pool
        self.durable = durable
        self.observer = observer
    }

    /// Applies `updates` in the next group transaction and returns once it is committed.
    func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let outcome = Mutex<Result<T, any Error>?>(nil)
            let job = Job(
                run: { db in
                    outcome.withLock {
                        $0 = Result {
                            var value: T?
                            try db.inSavepoint {
                                value = try updates(db)
                                return .commit
                            }
                            guard let value else { throw DatabaseError(message: "grouped write produced nothing") }
                            return value
                        }
                    }
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
                if durable {
                    try await pool.write { db in
                        for job in jobs { job.run(db) }
                    }
                } else {
                    try await pool.writeWithoutTransaction { db in
                        try db.execute(cached: "PRAGMA synchronous = NORMAL")
                        defer { try? db.execute(cached: "PRAGMA synchronous = FULL") }
                        try db.inTransaction {
                            for job in jobs { job.run(db) }
                            return .commit
                        }
                    }
                }
                observer?(jobs.count)
                for job in jobs { job.finish(nil) }
            } catch {
                for job in jobs { job.finish(error) }
            }
        }
    }
}
