import Foundation
import Synchronization

/// Time-ordered 64-bit ids, as Mastodon makes them: milliseconds since the Unix epoch in the
/// high 48 bits, a sequence in the low 16. Sorting by id sorts by creation time, so pages are
/// index range scans and API cursors (`max_id`, `since_id`) are plain ids.
public enum Snowflake {
    private static let state = Mutex<(millis: Int64, sequence: Int64)>((0, 0))

    /// A new id for something created now; strictly increasing within the process.
    public static func next(now: Date = Date()) -> Int64 {
        let millis = Int64(now.timeIntervalSince1970 * 1000)
        return state.withLock { state in
            if millis > state.millis {
                state = (millis, Int64.random(in: 0..<256))
            } else {
                // Same millisecond (or a clock step back): keep counting, spilling into the
                // next millisecond if the 16-bit sequence runs out.
                state.sequence += 1
                if state.sequence > 0xFFFF { state = (state.millis + 1, 0) }
            }
            return state.millis << 16 | state.sequence
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
