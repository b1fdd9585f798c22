import Storage
#if canImport(Glibc)
import Glibc
#endif

/// Watches a running node's queues from the benchmark process (`QueueProbe`, read-only).
struct QueueMonitor {
    private let probe: QueueProbe

    /// Opens the node database at `path` read-only.
    init(path: String) throws(BenchError) {
        do { probe = try QueueProbe(path: path) } catch {
            throw .setup("cannot open \(path) read-only: \(error)")
        }
    }

    /// Watches the node database at `url` (PostgreSQL).
    init(url: String) throws(BenchError) {
        guard let parsed = DatabaseURL(url) else { throw .setup("not a postgres:// URL: \(url)") }
        do { probe = try QueueProbe(url: parsed) } catch { throw .setup("cannot connect to \(url): \(error)") }
    }

    /// Inbox items not yet attempted.
    var inboxPending: Int { probe.inboxPending }
    /// Inbox items that failed and wait for a retry.
    var inboxRetrying: Int { probe.inboxRetrying }
    /// Deliveries still queued.
    var deliveriesQueued: Int { probe.deliveriesQueued }
    /// How each handled activity ended (`processed`, `ignored`, `refused`, ...).
    var outcomes: [String: Int] { probe.outcomes }

    /// Polls every 20 ms until `condition` holds.
    /// - Returns: The monotonic time it first held, or `nil` after `limit` seconds.
    static func wait(limit: Double, _ condition: () -> Bool) -> UInt64? {
        let deadline = MonotonicClock.now() + UInt64(limit * 1e9)
        while MonotonicClock.now() < deadline {
            if condition() { return MonotonicClock.now() }
            usleep(20_000)
        }
        return nil
    }
}
