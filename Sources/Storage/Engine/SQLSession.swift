import GRDB

/// The connection one transaction runs on, whichever engine holds the node's data.
///
/// Every aggregate's queries are written once, against this type: GRDB builds the SQL
/// (query-interface requests, records) and maps rows to records on both engines. On SQLite a
/// session forwards to a GRDB connection; on PostgreSQL it runs the same SQL, rewritten by
/// `PostgresDialect`, on a PostgreSQL connection inside the transaction.
///
/// A session exists only inside `NodeDatabase.read`/`write` and must not escape them.
public final class SQLSession {
    enum Backend {
        case sqlite(GRDB.Database)
        case postgres(PostgresSession)
    }

    let backend: Backend

    /// Wraps a GRDB connection that is inside a transaction (SQLite).
    public init(_ db: GRDB.Database) { backend = .sqlite(db) }
    init(_ session: PostgresSession) { backend = .postgres(session) }

    /// The GRDB connection, on SQLite only (start-up checks, backups, bulk loading).
    var sqlite: GRDB.Database? {
        if case .sqlite(let db) = backend { return db }
        return nil
    }

    /// Runs statements that return no rows.
    public func execute(sql: String, arguments: StatementArguments = StatementArguments()) throws {
        switch backend {
        case .sqlite(let db): try db.execute(sql: sql, arguments: arguments)
        case .postgres(let pg): try pg.execute(sql: sql, arguments: arguments)
        }
    }

    /// Executes one statement of constant SQL through the connection's statement cache, so it
    /// is prepared once per connection rather than at every call: preparing runs SQLite's
    /// parser and GRDB's authorizer over every column the statement and its triggers touch,
    /// which costs more than running a small write. Only for SQL whose text never varies
    /// (no value or list spliced in): every distinct text stays cached for the connection's life.
    func execute(cached sql: String, arguments: StatementArguments = StatementArguments()) throws {
        switch backend {
        case .sqlite(let db): try db.cachedStatement(sql: sql).execute(arguments: arguments)
        case .postgres(let pg): try pg.execute(sql: sql, arguments: arguments)
        }
    }

    /// A statement of constant SQL, prepared once per connection (see `execute(cached:)`).
    public func cachedStatement(sql: String) -> CachedSQL { CachedSQL(session: self, sql: sql) }

    /// Rows changed by the last INSERT, UPDATE or DELETE (not counting trigger changes).
    public var changesCount: Int {
        switch backend {
        case .sqlite(let db): db.changesCount
        case .postgres(let pg): pg.changesCount
        }
    }

    /// Whether other processes may write the same database at the same time (PostgreSQL; an
    /// SQLite file is served by one process, `DatabaseLock`).
    var isShared: Bool {
        if case .postgres = backend { return true }
        return false
    }

    /// Holds `lock` until the transaction ends, waiting for another process that holds it
    /// (a PostgreSQL transaction-scoped advisory lock). A no-op on SQLite, whose writes are
    /// serialised anyway. For short critical sections that span processes: claiming queued
    /// work in order, numbering the stream log in commit order.
    func holdUntilCommit(_ lock: ProcessLock) throws {
        guard case .postgres(let pg) = backend else { return }
        _ = try pg.run(postgres: "SELECT pg_advisory_xact_lock($1)", [lock.rawValue.databaseValue])
    }

    /// Takes the advisory lock of the scheduled job `name` until the transaction ends, when no
    /// other process holds it (PostgreSQL); always `true` on SQLite.
    /// - Returns: Whether the lock is held now.
    func tryHoldUntilCommit(job name: String) throws -> Bool {
        guard case .postgres(let pg) = backend else { return true }
        let rows = try pg.run(postgres: "SELECT pg_try_advisory_xact_lock(7460, hashtext($1))", ["fednode-job:\(name)".databaseValue])
        return rows.first.flatMap { $0[0] as Bool? } ?? false
    }

    /// Runs `body` in a savepoint of the current transaction: if it throws, its changes are
    /// rolled back and the error rethrown, and the transaction goes on (a group commit's
    /// callers each get one).
    func inSavepoint<T>(_ body: () throws -> T) throws -> T {
        switch backend {
        case .sqlite(let db):
            var value: T?
            try db.inSavepoint {
                value = try body()
                return .commit
            }
            guard let value else { throw DatabaseError(message: "savepoint produced nothing") }
            return value
        case .postgres(let pg):
            _ = try pg.run(postgres: "SAVEPOINT fednode_grouped")
            do {
                let value = try body()
                _ = try pg.run(postgres: "RELEASE SAVEPOINT fednode_grouped")
                return value
            } catch {
                // A failed statement leaves the transaction aborted until this rollback.
                _ = try? pg.run(postgres: "ROLLBACK TO SAVEPOINT fednode_grouped")
                _ = try? pg.run(postgres: "RELEASE SAVEPOINT fednode_grouped")
                throw error
            }
        }
    }

    /// Runs `onCommit` once the current transaction commits (never, if it rolls back; a
    /// savepoint rolled back inside a transaction that commits still runs it, so hooks must be
    /// harmless then, as the caches' invalidations are).
    func afterNextTransaction(onCommit: @escaping @Sendable () -> Void) {
        switch backend {
        case .sqlite(let db): db.afterNextTransaction(onCommit: { _ in onCommit() })
        case .postgres(let pg): pg.afterCommit(onCommit)
        }
    }
}

/// The advisory locks the processes of one node share (keys in PostgreSQL's one 64-bit space
/// per database; the prefix 7460 marks them as FedNode's).
enum ProcessLock: Int64 {
    /// Migrating the schema.
    case migrations = 7460011
    /// Claiming inbox items: the per-actor order holds across processes.
    case inboxClaims = 7460012
    /// Appending to the streaming log, so its ids commit in order.
    case streamLog = 7460013
    /// Creating what a node makes once, on its first start (keys): processes starting together
    /// must not each make their own.
    case firstStart = 7460014
}

/// Constant SQL run through a connection's statement cache (`SQLSession.cachedStatement`).
public struct CachedSQL {
    let session: SQLSession
    let sql: String

    /// The prepared statement, on SQLite; `nil` on PostgreSQL, which prepares by text.
    func sqliteStatement() throws -> Statement? {
        guard case .sqlite(let db) = session.backend else { return nil }
        return try db.cachedStatement(sql: sql)
    }
}
