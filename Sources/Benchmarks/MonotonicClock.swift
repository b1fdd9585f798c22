#if canImport(Glibc)
import Glibc
#endif

/// Nanoseconds on the monotonic clock: what every duration in the suite is measured with
/// (cheap enough to read twice per request in the load generator).
enum MonotonicClock {
    /// The current reading.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Seconds elapsed between two readings.
    static func seconds(from start: UInt64, to end: UInt64) -> Double {
        Double(end &- start) / 1e9
    }
}
