import Foundation
import Synchronization

/// Time-ordered 64-bit ids, as Mastodon makes them: milliseconds since the Unix epoch in the
/// high 48 bits, a sequence in the low 16. Sorting by id sorts by creation time, so pages are
/// index range scans and API cursors (`max_id`, `since_id`) are plain ids.
///
/// Several processes on one PostgreSQL database make ids for the same tables in the same
/// milliseconds. There each process has a tag of its own (`shareIdSpace`), numbered by the
/// database, in the upper 10 bits of the low 16, and counts in the lower 6. Two processes alive
/// at once share a tag only when 1,023 other processes (servers or commands) opened the
/// database while one of them ran. A process makes 64 ids per millisecond before it borrows
/// from the next one: a burst of n ids runs up to n/64 ms ahead of the clock.
public enum Snowflake {
    private struct State {
        var millis: Int64 = 0
        var sequence: Int64 = 0
        /// The process's tag, once its ids share a database with other processes.
        var tag: Int64?
    }

    private static let state = Mutex(State())

    /// How many process tags there are.
    public static let processTags: Int64 = 1 << tagBits
    private static let tagBits: Int64 = 10
    private static let taggedSequenceBits: Int64 = 16 - tagBits

    /// From now on, ids carry `tag` (`0..<processTags`): this process shares the database with
    /// other processes. The first call decides; the ids of one process keep increasing.
    public static func shareIdSpace(tag: Int64) {
        state.withLock { state in
            guard state.tag == nil else { return }
            state.tag = tag % processTags
            // Ids of this millisecond were numbered without the tag: go on from the next one.
            state.millis += 1
            state.sequence = 0
        }
    }

    /// The tag this process's ids carry, if any.
    public static var processTag: Int64? { state.withLock { $0.tag } }

    /// A new id for something created now; strictly increasing within the process.
    public static func next(now: Date = Date()) -> Int64 {
        let millis = Int64(now.timeIntervalSince1970 * 1000)
        return state.withLock { state in
            let limit: Int64 = state.tag == nil ? 0xFFFF : (1 << taggedSequenceBits) - 1
            if millis > state.millis {
                state.millis = millis
                state.sequence = state.tag == nil ? Int64.random(in: 0..<256) : 0
            } else {
                // Same millisecond (or a clock step back): keep counting, spilling into the
                // next millisecond if the sequence runs out.
                state.sequence += 1
                if state.sequence > limit { (state.millis, state.sequence) = (state.millis + 1, 0) }
            }
            guard let tag = state.tag else { return state.millis << 16 | state.sequence }
            return state.millis << 16 | tag << taggedSequenceBits | state.sequence
        }
    }

    /// An id for something created at `date` elsewhere (a remote post's `published`), so it
    /// sorts among local ids by its own time. The low bits are random; callers retry on the rare
    /// collision through the primary key.
    public static func at(_ date: Date) -> Int64 {
        let millis = max(0, Int64(date.timeIntervalSince1970 * 1000))
        return millis << 16 | Int64.random(in: 0...0xFFFF)
    }

    /// The smallest id that could have been made at `date`, for time-based range queries.
    public static func lowerBound(at date: Date) -> Int64 {
        max(0, Int64(date.timeIntervalSince1970 * 1000)) << 16
    }

    /// The creation time encoded in `id`.
    public static func date(of id: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(id >> 16) / 1000)
    }
}
