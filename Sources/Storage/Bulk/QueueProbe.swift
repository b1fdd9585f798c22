import GRDB

/// Watches a running node's queues from another process through a read-only connection
/// (WAL lets it read while the node writes). Every figure is -1 (or empty) when a read fails.
public struct QueueProbe: Sendable {
    private let queue: DatabaseQueue

    /// Opens the node database at `path` read-only.
    public init(path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        queue = try DatabaseQueue(path: path, configuration: configuration)
    }

    /// Inbox items not yet attempted.
    public var inboxPending: Int { count("SELECT count(*) FROM inbox_queue WHERE attempts = 0") }
    /// Inbox items that failed and wait for a retry.
    public var inboxRetrying: Int { count("SELECT count(*) FROM inbox_queue WHERE attempts > 0") }
    /// Deliveries still queued.
    public var deliveriesQueued: Int { count("SELECT count(*) FROM delivery_queue") }

    /// How each handled activity ended (`processed`, `ignored`, `refused`, ...).
    public var outcomes: [String: Int] {
        let rows = (try? queue.read { try Row.fetchAll($0, sql: "SELECT outcome, count(*) AS n FROM seen_activities GROUP BY outcome") }) ?? []
        return Dictionary(rows.map { ($0["outcome"] as String? ?? "-", $0["n"] as Int) }, uniquingKeysWith: +)
    }

    private func count(_ sql: String) -> Int {
        (try? queue.read { try Int.fetchOne($0, sql: sql) }) ?? -1
    }
}
