import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// Counts the SQL statements one unit of work runs (a request, an inbox activity), on either
/// engine: the figure `/metrics` reports per route and per activity type.
///
/// A caller sets `StatementTally.current` for the task; every `NodeDatabase` transaction begun
/// in that task counts the statements its body runs (on PostgreSQL each is a round trip to the
/// server; on SQLite, statements that triggers run are not counted). `BEGIN` and `COMMIT` are
/// not counted.
public final class StatementTally: Sendable {
    /// The tally of the task's work, if one is kept.
    @TaskLocal public static var current: StatementTally?

    private let counter = Atomic<Int>(0)

    public init() {}

    /// Statements counted so far.
    public var count: Int { counter.load(ordering: .relaxed) }

    func add() { counter.add(1, ordering: .relaxed) }

    // MARK: The thread running a transaction body

    /// The tally of the transaction body running on this thread: bodies run synchronously on
    /// an engine's thread (a SQLite connection's queue, PostgreSQL's pool, or in place), where
    /// the task's values are out of reach of SQLite's callback.
    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Runs `body` with `tally` counting the statements run on this thread meanwhile.
    static func counting<T>(_ tally: StatementTally?, _ body: () throws -> T) rethrows -> T {
        guard let tally else { return try body() }
        let previous = pthread_getspecific(threadKey)
        pthread_setspecific(threadKey, Unmanaged.passUnretained(tally).toOpaque())
        defer { pthread_setspecific(threadKey, previous) }
        return try withExtendedLifetime(tally) { try body() }
    }

    /// Counts one statement for the body running on this thread, if it keeps a tally.
    static func countStatement() {
        guard let raw = pthread_getspecific(threadKey) else { return }
        Unmanaged<StatementTally>.fromOpaque(raw).takeUnretainedValue().add()
    }

    /// Has SQLite report each statement it starts on `db` to the running body's tally. The
    /// callback reads only the statement's text pointer: a trigger's program starts with `--`.
    static func install(on db: Database) {
        guard let connection = db.sqliteConnection else { return }
        sqlite3_trace_v2(connection, UInt32(SQLITE_TRACE_STMT), { _, _, _, sql in
            if let sql = sql?.assumingMemoryBound(to: CChar.self), sql[0] == 0x2D, sql[1] == 0x2D { return 0 }
            StatementTally.countStatement()
            return 0
        }, nil)
    }
}
