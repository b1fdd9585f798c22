import Foundation
import GRDB

/// The node's database, opened once per process: SQLite (one WAL-mode `DatabasePool`, the
/// default) or PostgreSQL (`init(url:)`). Both run the same Storage queries.
///
/// Every action that changes state runs inside one `write {}` so it lands whole or not at all.
public final class NodeDatabase: Sendable {
    private enum Engine: Sendable {
        /// The pool, and its queue bookkeeping's group commit (see `writeBookkeeping`).
        case sqlite(DatabasePool, bookkeeping: GroupCommit)
        case postgres(PostgresEngine)
    }

    private let engine: Engine
    /// Acknowledged small writes, grouped (`writeDurablyGrouped`).
    private let group: GroupCommit
    /// Path of the SQLite file, or the PostgreSQL URL without its password.
    public let path: String
    /// Where each SQLite read runs (`read`).
    let readers = ReaderGate(readers: NodeDatabase.configuration.maximumReaderCount)

    /// The SQLite pool (SQLite only: backups, integrity checks, tests that read the file).
    public var pool: DatabasePool {
        guard case .sqlite(let pool, _) = engine else { preconditionFailure("the database is on PostgreSQL, not SQLite") }
        return pool
    }

    /// Whether the data is on PostgreSQL.
    public var isPostgres: Bool {
        if case .postgres = engine { return true }
        return false
    }

    /// Whether other `fednode` processes may work on this database at the same time
    /// (PostgreSQL): queued work is then claimed before it is done (`WorkLease`).
    public var isShared: Bool { isPostgres }

    /// Opens the database `location` names: a `postgres://` URL, or a SQLite file path.
    /// - Throws: `StorageError.cannotOpen`, `StorageError.migrationFailed`.
    public convenience init(
        location: String, migrate: Bool = true, groupCommitObserver: (@Sendable (_ durable: Bool, _ groupSize: Int) -> Void)? = nil
    ) throws(StorageError) {
        if let url = DatabaseURL(location) {
            try self.init(url: url, migrate: migrate, groupCommitObserver: groupCommitObserver)
        } else {
            try self.init(path: location, migrate: migrate, groupCommitObserver: groupCommitObserver)
        }
    }

    /// Connects to the PostgreSQL database at `url` and applies pending migrations.
    /// - Parameter groupCommitObserver: Told the size of each committed group of acknowledged
    ///   writes (`durable` is always true here: bookkeeping is not grouped on PostgreSQL).
    /// - Throws: `StorageError.cannotOpen` when it cannot be reached, `.migrationFailed`.
    public init(
        url: DatabaseURL, migrate: Bool = true, groupCommitObserver: (@Sendable (_ durable: Bool, _ groupSize: Int) -> Void)? = nil
    ) throws(StorageError) {
        path = url.redacted
        let postgres: PostgresEngine
        do {
            postgres = try PostgresEngine(url: url)
        } catch {
            throw .cannotOpen(path: url.redacted, reason: "\(error)")
        }
        engine = .postgres(postgres)
        group = .postgres(postgres, observer: Self.groupObserver(groupCommitObserver, durable: true))
        if migrate { try self.migrate() }
        // Other processes make ids for the same tables: each process puts its own tag in its
        // ids, taken once (later databases a process opens keep it). Without the sequence (a
        // database not migrated yet), a random tag.
        if Snowflake.processTag == nil {
            Snowflake.shareIdSpace(tag: (try? newProcessTag()) ?? Int64.random(in: 0..<Snowflake.processTags))
        }
    }

    /// The next process tag of the PostgreSQL database (`Snowflake`); `nil` on SQLite.
    func newProcessTag() throws -> Int64? {
        guard case .postgres(let postgres) = engine else { return nil }
        return try postgres.processTag(modulo: Snowflake.processTags)
    }

    /// Opens (creating if needed) the database at `path` and applies pending migrations.
    /// - Parameters:
    ///   - path: File path of the SQLite database; its directory is created when missing.
    ///   - migrate: Whether to apply pending migrations now (the `migrate` command passes `true`
    ///     explicitly; `serve` migrates at start as Mastodon's docker image does).
    ///   - groupCommitObserver: Told, after each committed group of `writeDurablyGrouped`
    ///     callers (`durable`) or of `writeBookkeeping` callers, how many callers it held (the
    ///     node's metrics read batch sizes through it, so Storage depends on no metrics library).
    /// - Throws: `StorageError.cannotOpen` when the file cannot be created or opened.
    public init(
        path: String, migrate: Bool = true, groupCommitObserver: (@Sendable (_ durable: Bool, _ groupSize: Int) -> Void)? = nil
    ) throws(StorageError) {
        self.path = path
        let pool: DatabasePool
        do {
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            pool = try DatabasePool(path: path, configuration: Self.configuration)
            // The inbox's 202 and the client API's 200 are promises: in WAL mode, FULL syncs the
            // WAL at every commit, so what was acknowledged survives power loss and OS crashes,
            // not only a process crash as NORMAL would (sqlite.org/pragma.html#pragma_synchronous).
            // Set on the pool's one writer after opening, because GRDB sets NORMAL on it when it
            // turns WAL on, after `prepareDatabase` ran. The cost is one fsync per commit; queue
            // bookkeeping that may be redone opts out through `writeBookkeeping`.
            try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = FULL") }
        } catch {
            throw .cannotOpen(path: path, reason: "\(error)")
        }
        engine = .sqlite(pool, bookkeeping: .sqlite(pool, durable: false, observer: Self.groupObserver(groupCommitObserver, durable: false)))
        group = .sqlite(pool, durable: true, observer: Self.groupObserver(groupCommitObserver, durable: true))
        if migrate { try self.migrate() }
    }

    /// The observer of one kind of group commit, from the caller's observer of both.
    private static func groupObserver(
        _ observe: (@Sendable (_ durable: Bool, _ groupSize: Int) -> Void)?, durable: Bool
    ) -> (@Sendable (_ groupSize: Int) -> Void)? {
        guard let observe else { return nil }
        return { observe(durable, $0) }
    }

    /// Applies every migration not yet applied; a no-op when the schema is current.
    /// - Returns: The identifiers of the migrations applied by this call.
    /// - Throws: `StorageError.migrationFailed`.
    @discardableResult
    public func migrate() throws(StorageError) -> [String] {
        if case .postgres(let postgres) = engine {
            do { return try PostgresMigrations.migrate(postgres) } catch let error as StorageError { throw error } catch { throw .migrationFailed("\(error)") }
        }
        do {
            let migrator = Migrations.migrator
            let before = try pool.read { try migrator.appliedIdentifiers($0) }
            try Migrations.refuseUnknown(before)
            try migrator.migrate(pool)
            let after = try pool.read { try migrator.appliedIdentifiers($0) }
            // In the order they ran (registration order), not alphabetical: names need not sort.
            return migrator.migrations.filter { after.contains($0) && !before.contains($0) }
        } catch let error as StorageError {
            throw error
        } catch {
            throw .migrationFailed("\(error)")
        }
    }

    /// Runs `updates` in a durable transaction (SQLite's `synchronous = FULL`, PostgreSQL's WAL
    /// flush) shared with other callers' concurrent writes, inside a savepoint of its own (group
    /// commit, on both engines): one sync acknowledges the whole group, so many small writes that
    /// each must be durable before answering (the inbox's 202) are not limited to one sync each.
    /// If `updates` throws, only its own changes are rolled back.
    /// - Parameter updates: The changes; keep them small, as they share a transaction.
    /// - Returns: What `updates` returns, once its transaction is committed.
    /// - Throws: What `updates` throws, or the shared commit's `DatabaseError`.
    public func writeDurablyGrouped<T: Sendable>(_ updates: @escaping @Sendable (Transaction) throws -> T) async throws -> T {
        let tally = StatementTally.current
        return try await group.write { db in try StatementTally.counting(tally) { try updates(Transaction(db)) } }
    }

    /// Runs `updates` atomically in a write transaction committed with `synchronous = NORMAL`
    /// (PostgreSQL: `synchronous_commit = off`), on SQLite shared with other callers' concurrent
    /// bookkeeping (group commit, each in a savepoint of its own): for queue bookkeeping (an attempt counted, a finished item removed, a retry
    /// scheduled) whose loss on power failure only means redoing idempotent work. In WAL mode
    /// such a commit survives a process crash, and the next FULL commit makes it durable too,
    /// since the WAL is replayed in order. Anything acknowledged to a client goes through
    /// `write` or `writeDurablyGrouped` (FULL) instead.
    /// - Parameter updates: The changes; keep them small, as they share a transaction.
    /// - Returns: What `updates` returns, once its transaction is committed.
    /// - Throws: What `updates` throws (only its own changes are rolled back), or a GRDB
    ///   `DatabaseError`.
    public func writeBookkeeping<T: Sendable>(_ updates: @escaping @Sendable (Transaction) throws -> T) async throws -> T {
        let tally = StatementTally.current
        switch engine {
        case .sqlite(_, let bookkeeping):
            return try await bookkeeping.write { db in try StatementTally.counting(tally) { try updates(Transaction(db)) } }
        // Not grouped: the inbox's claims hold the lock that orders the processes' claims, which
        // a group would hold until all of its callers were done.
        case .postgres(let postgres):
            return try await postgres.transaction(write: true, durable: false) { session in
                try StatementTally.counting(tally) { try updates(Transaction(session)) }
            }
        }
    }

    /// Runs `body` in a read transaction: the async entry point for every read on a request or
    /// worker path. On SQLite it runs on the calling thread while the pool has a reader
    /// connection to spare, and otherwise waits for one on the pool's queues (`ReaderGate`);
    /// on PostgreSQL it runs on the engine's thread pool.
    /// - Parameter body: The queries; it sees one consistent snapshot.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or a `DatabaseError`.
    public func read<T: Sendable>(_ body: @Sendable (Transaction) throws -> T) async throws -> T {
        let tally = StatementTally.current
        switch engine {
        case .sqlite(let pool, _):
            defer { readers.leave() }
            if readers.enter() { return try Self.readInPlace(pool, tally: tally, body) }
            return try await pool.unsafeRead { db in
                try Self.inReadTransaction(db) { db in try StatementTally.counting(tally) { try body(Transaction(db)) } }
            }
        case .postgres(let postgres): return try await Self.run(body, write: false, tally: tally, on: postgres)
        }
    }

    /// `read` on the calling thread (GRDB's synchronous read, which a non-async function calls).
    private static func readInPlace<T>(_ pool: DatabasePool, tally: StatementTally?, _ body: (Transaction) throws -> T) throws -> T {
        try pool.unsafeRead { db in try inReadTransaction(db) { db in try StatementTally.counting(tally) { try body(Transaction(db)) } } }
    }

    /// Runs `body` in a deferred read transaction begun and ended through cached statements,
    /// as GRDB's `read` does but without preparing `BEGIN` and `COMMIT` again at every call
    /// (four statements parsed per page of a list, which reads twice: its token, then the page).
    /// GRDB's `unsafeRead` checks whether the schema changed just before this transaction
    /// begins, where `read` checks inside it; the schema only changes when migrations run, at
    /// start, and SQLite prepares a statement again itself when it did.
    private static func inReadTransaction<T>(_ db: Database, _ body: (Database) throws -> T) throws -> T {
        try db.cachedStatement(sql: "BEGIN DEFERRED TRANSACTION").execute()
        let value: T
        do {
            value = try body(db)
            try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
        } catch {
            // Leave the transaction whatever happened, so the connection goes back to the pool clean.
            if db.isInsideTransaction { try? db.rollback() }
            throw error
        }
        return value
    }

    /// Runs `body` in one durable (FULL) write transaction: it commits whole or not at all.
    /// - Parameter body: The changes.
    /// - Returns: What `body` returns, once committed.
    /// - Throws: What `body` throws (the transaction is rolled back), or a `DatabaseError`.
    public func write<T: Sendable>(_ body: @Sendable (Transaction) throws -> T) async throws -> T {
        let tally = StatementTally.current
        switch engine {
        case .sqlite(let pool, _): return try await pool.write { db in try StatementTally.counting(tally) { try body(Transaction(db)) } }
        case .postgres(let postgres): return try await Self.run(body, write: true, tally: tally, on: postgres)
        }
    }

    /// Runs a non-escaping `body` in a transaction on PostgreSQL's thread pool. The body is
    /// done before this returns, but the pool's job may outlive it, so the job holds the body
    /// through a box emptied before `withoutActuallyEscaping` checks that it did not escape.
    private static func run<T: Sendable>(_ body: @Sendable (Transaction) throws -> T, write: Bool, tally: StatementTally?,
                                         on postgres: PostgresEngine) async throws -> T {
        try await withoutActuallyEscaping(body) { body in
            let box = BodyBox(body)
            defer { box.body = nil }
            return try await postgres.transaction(write: write) { session in
                guard let body = box.body else { throw StorageError.database("transaction body released early") }
                return try StatementTally.counting(tally) { try body(Transaction(session)) }
            }
        }
    }

    /// `read`, blocking the calling thread: for the command line, start-up and threads of
    /// their own (a sign-in's password check), never on the cooperative pool. Counted as a read
    /// in flight, so reads that run in place see the reader it holds (`ReaderGate`).
    public func readBlocking<T>(_ body: (Transaction) throws -> T) throws -> T {
        switch engine {
        case .sqlite(let pool, _):
            _ = readers.enter()
            defer { readers.leave() }
            return try pool.read { try body(Transaction($0)) }
        case .postgres(let postgres): return try postgres.transactionBlocking(write: false) { try body(Transaction($0)) }
        }
    }

    /// `write`, blocking the calling thread: for the command line and start-up only.
    public func writeBlocking<T>(_ body: (Transaction) throws -> T) throws -> T {
        switch engine {
        case .sqlite(let pool, _): try pool.write { try body(Transaction($0)) }
        case .postgres(let postgres): try postgres.transactionBlocking(write: true) { try body(Transaction($0)) }
        }
    }

    /// Calls `onChange` after each committed transaction that may have changed `table`: on
    /// SQLite those of this process (one process serves the file); on PostgreSQL those of
    /// every process, announced with `NOTIFY` (the table must be one that is announced,
    /// `PostgresMigrations.announcedInserts` or `announcedChanges`).
    func observe(table: String, onChange: @escaping @Sendable () -> Void) -> ChangeObservation {
        switch engine {
        case .sqlite(let pool, _):
            let cancellable = DatabaseRegionObservation(tracking: Table(table))
                .start(in: pool, onError: { _ in }, onChange: { _ in onChange() })
            return ChangeObservation(cancel: { cancellable.cancel() })
        case .postgres(let postgres):
            let id = postgres.addListener(table: table, onChange)
            return ChangeObservation(cancel: { [weak postgres] in postgres?.removeListener(id) })
        }
    }

    /// Runs `body` in a read transaction with the session itself: for tests and tools that
    /// inspect rows directly, on either engine (node code goes through `read` and the aggregates).
    public func readSQL<T: Sendable>(_ body: @Sendable (SQLSession) throws -> T) async throws -> T {
        try await read { try body($0.session) }
    }

    /// `readSQL`, blocking the calling thread.
    public func readSQL<T>(_ body: (SQLSession) throws -> T) throws -> T {
        try readBlocking { try body($0.session) }
    }

    /// Runs `body` in a write transaction with the session itself (tests and tools).
    public func writeSQL<T: Sendable>(_ body: @Sendable (SQLSession) throws -> T) async throws -> T {
        try await write { try body($0.session) }
    }

    /// `writeSQL`, blocking the calling thread.
    public func writeSQL<T>(_ body: (SQLSession) throws -> T) throws -> T {
        try writeBlocking { try body($0.session) }
    }

    /// Identifiers of every migration the code knows, in order.
    public static var knownMigrations: [String] { Migrations.migrator.migrations }

    private static var configuration: Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            StatementTally.install(on: db)
            // 16 MiB of page cache per connection (SQLite's default is 2 MiB): index pages of a
            // large database stay in memory instead of being read again for every page view.
            try db.execute(sql: "PRAGMA cache_size = -16000")
        }
        return configuration
    }
}

/// Holds a transaction body for a job on another thread (see `NodeDatabase.run`).
private final class BodyBox<T>: @unchecked Sendable {
    var body: (@Sendable (Transaction) throws -> T)?
    init(_ body: @escaping @Sendable (Transaction) throws -> T) { self.body = body }
}
