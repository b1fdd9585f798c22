import Synchronization

/// Decides where each SQLite read runs: on the calling thread while the pool surely has a
/// reader connection free, otherwise on the pool's own queues.
///
/// GRDB's async read hops from the caller's thread to a queue that waits for a free reader,
/// then to that reader's queue, then back: thread switches and wake-ups at every read, two
/// reads per page of a list (its token, then the page). Its synchronous read takes a reader
/// and runs on the calling thread. On a cooperative thread that is only acceptable for the
/// read's own work, never to wait for a connection: a reader taken by an async read is given
/// back by a continuation that itself needs a cooperative thread, so cooperative threads all
/// waiting for readers could wait for ever. So every read counts itself here, and runs in
/// place only when the reads in flight, itself included, leave one of the pool's readers
/// unused (kept for the one read that does not go through here, a backup). Reads past that
/// wait on the pool's queues, as before; measured with many clients at once, that mix cost
/// less CPU per request than either way alone (BENCHMARKS.md, round twelve).
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
