import GRDB
#if canImport(Glibc)
import Glibc
#endif

/// Watches a running node's queues from the benchmark process through a read-only
/// connection (WAL lets it read while the node writes).
struct QueueMonitor {
    private let queue: DatabaseQueue

    /// Opens the node database at `path` read-only.
    init(path: String) throws(BenchError) {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        do { queue = try DatabaseQueue(path: path, configuration: configuration) } catch {
            throw .setup("cannot open \(path) read-only: \(error)")
        }
    }

    /// Rows of `sql` (a `SELECT count(*) ...`), or -1 when the read fails.
    func count(_ sql: String) -> Int {
        (try? queue.read { try Int.fetchOne($0, sql: sql) }) ?? -1
    }

    /// Inbox items not yet attempted.
    var inboxPending: Int { count("SELECT count(*) FROM inbox_queue WHERE attempts = 0") }
    /// Inbox items that failed and wait for a retry.
    var inboxRetrying: Int { count("SELECT count(*) FROM inbox_queue WHERE attempts > 0") }
    /// Deliveries still queued.
    var deliveriesQueued: Int { count("SELECT count(*) FROM delivery_queue") }

    /// How each handled activity ended (`processed`, `ignored`, `refused`, ...).
    var outcomes: [String: Int] {
        let rows = (try? queue.read { try Row.fetchAll($0, sql: "SELECT outcome, count(*) AS n FROM seen_activities GROUP BY outcome") }) ?? []
        return Dictionary(uniqueKeysWithValues: rows.map { ($0["outcome"] as String? ?? "-", $0["n"] as Int) })
    }

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
