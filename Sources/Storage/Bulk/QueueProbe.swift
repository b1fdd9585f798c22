import GRDB

/// Watches a running node's queues from another process: through a read-only connection to
/// its SQLite file (WAL lets it read while the node writes), or on its PostgreSQL database.
/// Every figure is -1 (or empty) when a read fails.
public struct QueueProbe: Sendable {
    private enum Source: Sendable {
        case sqlite(DatabaseQueue)
        case postgres(NodeDatabase)
    }

    private let source: Source

    /// Opens the node database at `path` read-only.
    public init(path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        source = .sqlite(try DatabaseQueue(path: path, configuration: configuration))
    }

    /// Connects to the node database at `url` (PostgreSQL), without migrating it.
    public init(url: DatabaseURL) throws {
        source = .postgres(try NodeDatabase(url: url, migrate: false))
    }

    /// Inbox items not yet attempted.
    public var inboxPending: Int { count("SELECT count(*) FROM inbox_queue WHERE attempts = 0") }
    /// Inbox items that failed and wait for a retry.
    public var inboxRetrying: Int { count("SELECT count(*) FROM inbox_queue WHERE attempts > 0") }
    /// Deliveries still queued.
    public var deliveriesQueued: Int { count("SELECT count(*) FROM delivery_queue") }

    /// How each handled activity ended (`processed`, `ignored`, `refused`, ...).
    public var outcomes: [String: Int] {
        let rows = (try? read { try Row.fetchAll($0, sql: "SELECT outcome, count(*) AS n FROM seen_activities GROUP BY outcome") }) ?? []
        return Dictionary(rows.map { ($0["outcome"] as String? ?? "-", $0["n"] as Int) }, uniquingKeysWith: +)
    }

    private func count(_ sql: String) -> Int {
        (try? read { try Int.fetchOne($0, sql: sql) }) ?? -1
    }

    private func read<T>(_ body: (SQLSession) throws -> T) throws -> T {
        switch source {
        case .sqlite(let queue): try queue.read { try body(SQLSession($0)) }
        case .postgres(let database): try database.readSQL(body)
        }
    }
}
