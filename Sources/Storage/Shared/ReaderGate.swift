import Synchronization

/// Decides where each SQLite read runs: on the calling thread while the pool has a reader
/// connection to spare, otherwise on the pool's own queues.
///
/// GRDB's async read hops from the caller's thread to a queue that waits for a free reader,
/// then to that reader's queue, then back: thread switches and wake-ups at every read, two
/// reads per page of a list (its token, then the page). Its synchronous read takes a reader
/// and runs on the calling thread. A cooperative thread must not be left waiting there for a
/// connection, though: a reader held by an async read is given back by a continuation that
/// needs a cooperative thread, so cooperative threads all waiting for readers held that way
/// would wait for ever. So every read through `NodeDatabase` counts itself here (`read`,
/// `readBlocking`, the integrity check), and runs in place only when the reads in flight,
/// itself included, leave one of the pool's readers unused, kept for code that uses the pool
/// directly (tests, tools). Reads past that wait on the pool's queues. A read that
/// went in place can still wait a moment, for readers that async reads took after it entered,
/// but the last cooperative thread to enter finds a reader free, and finishing frees it to
/// run the continuations that give the others back. GRDB's barriers (closing the pool,
/// `releaseMemory()`, migrations) wait for every reader; none of them runs while the node
/// serves. Measured with many clients at once, this mix cost less CPU per request than either
/// way alone (docs/benchmarks-history.md).
final class ReaderGate: Sendable {
    /// The most reads that run in place at once.
    let limit: Int
    private let inFlight = Atomic<Int>(0)

    /// - Parameter readers: The pool's maximum number of reader connections.
    init(readers: Int) {
        limit = max(readers - 1, 0)
    }

    /// Counts a read in; `true` when it may run on the calling thread. Every call is paired
    /// with `leave()` once the read is over, whichever way it ran.
    func enter() -> Bool {
        inFlight.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue <= limit
    }

    /// Counts a read out.
    func leave() {
        inFlight.wrappingSubtract(1, ordering: .acquiringAndReleasing)
    }

    /// Reads in flight now (tests).
    var count: Int { inFlight.load(ordering: .acquiring) }
}
