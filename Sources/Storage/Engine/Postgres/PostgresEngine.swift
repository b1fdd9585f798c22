import Foundation
import GRDB
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// The node's data on PostgreSQL: a small pool of connections, transactions run on a thread
/// pool of their own, and a schema-only SQLite database in memory that compiles GRDB's
/// requests and materialises rows, so every Storage query is written once for both engines.
///
/// Writes are serialised within the process, as on SQLite (one writer): the aggregates'
/// read-then-write logic keeps its meaning. Reads run in `REPEATABLE READ`, one consistent
/// snapshot each, as a WAL read transaction is.
final class PostgresEngine: Sendable {
    let logger: Logger
    private let configuration: PostgresConnection.Configuration
    private let eventLoops: any EventLoopGroup
    private let threads: NIOThreadPool
    private let compiler: DatabaseQueue
    /// The columns the schema declares BOOLEAN, in any table.
    private let booleanColumns: Set<String>
    private let idle = Mutex<[PooledConnection]>([])
    /// The names of the statements the connections prepare.
    let preparedNames = PreparedNames()
    private let connectionSlots: DispatchSemaphore
    private let writer = DispatchSemaphore(value: 1)
    private let nextConnectionID = Atomic<Int>(0)
    private let translations = Mutex<[String: PostgresDialect.Statement]>([:])
    private let schema = Mutex<(keys: [String: [String]], columns: [String: [String]])>(([:], [:]))
    /// Observers of announced tables (`PostgresMigrations.announcedInserts`), by token.
    private let listeners = Mutex<[Int: (table: String, onChange: @Sendable () -> Void)]>([:])
    private let nextListener = Atomic<Int>(0)
    /// The task holding the `LISTEN` connection, started with the first observer.
    private let announcements = Mutex<Task<Void, Never>?>(nil)

    /// Connects to the database `url` names (`postgres://user[:password]@host[:port]/db`, or a
    /// Unix socket directory as `?host=/path`), checking that a first connection opens.
    init(url: DatabaseURL, maxConnections: Int = 8) throws {
        var logger = Logger(label: "fednode.postgres")
        logger.logLevel = .warning
        self.logger = logger
        if let socket = url.socketPath {
            configuration = .init(unixSocketPath: socket, username: url.user, password: url.password, database: url.database)
        } else {
            configuration = .init(host: url.host, port: url.port, username: url.user, password: url.password,
                                  database: url.database, tls: .disable)
        }
        eventLoops = MultiThreadedEventLoopGroup.singleton
        threads = NIOThreadPool(numberOfThreads: maxConnections)
        threads.start()
        connectionSlots = DispatchSemaphore(value: maxConnections)
        compiler = try DatabaseQueue()
        try Migrations.migrator.migrate(compiler)
        booleanColumns = try compiler.read { db in
            Set(try String.fetchAll(db, sql: """
                SELECT DISTINCT lower(c.name) FROM sqlite_master t JOIN pragma_table_info(t.name) c
                WHERE t.type = 'table' AND upper(c.type) IN ('BOOLEAN', 'BOOL')
                """))
        }
        let first = try connect()
        idle.withLock { $0.append(PooledConnection(first)) }
    }

    deinit {
        announcements.withLock { $0?.cancel() }
        for pooled in idle.withLock({ $0 }) { Self.close(pooled.connection) }
        threads.shutdownGracefully { _ in }
    }

    /// Closes `connection`, keeping it alive until it is closed (postgres-nio requires that).
    private static func close(_ connection: PostgresConnection) {
        (connection.close() as EventLoopFuture<Void>).whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    // MARK: Transactions

    /// Runs `body` in a transaction on the engine's thread pool.
    func transaction<T: Sendable>(write: Bool, durable: Bool = true, _ body: @escaping @Sendable (SQLSession) throws -> T) async throws -> T {
        try await threads.runIfActive { try self.transactionBlocking(write: write, durable: durable, body) }
    }

    /// Runs `body` in a transaction on the calling thread (never an event loop nor the
    /// cooperative pool).
    func transactionBlocking<T>(write: Bool, durable: Bool = true, _ body: (SQLSession) throws -> T) throws -> T {
        if write { writer.wait() }
        defer { if write { writer.signal() } }
        connectionSlots.wait()
        defer { connectionSlots.signal() }
        let (pooled, session) = try begin(write: write, durable: durable)
        var healthy = true
        defer {
            if healthy && !pooled.retire && !pooled.isClosed { idle.withLock { $0.append(pooled) } } else { Self.close(pooled.connection) }
        }
        let value: T
        do {
            value = try body(SQLSession(session))
            try session.run(postgres: "COMMIT")
        } catch {
            do { try session.run(postgres: "ROLLBACK") } catch { healthy = false }
            throw error
        }
        for hook in session.takeCommitHooks() { hook() }
        return value
    }

    /// A connection of the pool with a transaction begun on it. A connection the server closed
    /// while it was idle (a restart, an idle timeout) fails its first statement; then every idle
    /// one is presumed gone as well, and one new connection is tried before the failure is the
    /// caller's (nothing ran yet, so trying again cannot do anything twice).
    private func begin(write: Bool, durable: Bool) throws -> (PooledConnection, PostgresSession) {
        func begin(on pooled: PooledConnection) throws -> (PooledConnection, PostgresSession) {
            let session = PostgresSession(pooled: pooled, engine: self)
            do {
                try session.run(postgres: write ? "BEGIN" : "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                if write && !durable { try session.run(postgres: "SET LOCAL synchronous_commit = off") }
                return (pooled, session)
            } catch {
                Self.close(pooled.connection)
                throw error
            }
        }
        // Connections the server closed while they were idle are left behind.
        var pooled: PooledConnection?
        while let candidate = idle.withLock({ $0.popLast() }) {
            if !candidate.isClosed { pooled = candidate; break }
            Self.close(candidate.connection)
        }
        guard let pooled else { return try begin(on: PooledConnection(connect())) }
        do {
            return try begin(on: pooled)
        } catch {
            for stale in idle.withLock({ idle in defer { idle = [] }; return idle }) { Self.close(stale.connection) }
            return try begin(on: PooledConnection(connect()))
        }
    }

    /// A number for this process, different from that of every other process that took one
    /// since (within `modulo` of them): the next value of `fednode_process_tags`.
    func processTag(modulo: Int64) throws -> Int64 {
        try transactionBlocking(write: true) { session in
            guard case .postgres(let pg) = session.backend,
                  let next = try pg.run(postgres: "SELECT nextval('fednode_process_tags')").first.flatMap({ $0[0] as Int64? }) else {
                throw DatabaseError(message: "nextval('fednode_process_tags') gave no number")
            }
            return next % modulo
        }
    }

    // MARK: Change announcements

    /// Calls `onChange` after every committed transaction, of any process on the database,
    /// that changed `table` (one of the tables announced with `NOTIFY`, see
    /// `PostgresMigrations.coordination`), and whenever announcements may have been missed
    /// (the listening connection was re-established). Observers poll as well, so a lost
    /// announcement only costs latency.
    /// - Returns: A token for `removeListener`.
    func addListener(table: String, _ onChange: @escaping @Sendable () -> Void) -> Int {
        let id = nextListener.add(1, ordering: .relaxed).newValue
        listeners.withLock { $0[id] = (table, onChange) }
        announcements.withLock { task in
            guard task == nil else { return }
            let (configuration, eventLoop, logger) = (configuration, eventLoops.next(), logger)
            task = Task { [weak self] in
                await Self.listen(configuration: configuration, on: eventLoop, logger: logger) { [weak self] table in
                    guard let engine = self else { return false }
                    engine.announce(table)
                    return true
                }
            }
        }
        return id
    }

    /// Stops calling a listener.
    func removeListener(_ id: Int) { _ = listeners.withLock { $0.removeValue(forKey: id) } }

    /// Calls the observers of `table`, or all of them for `nil`.
    private func announce(_ table: String?) {
        let matching = listeners.withLock { $0.values.filter { table == nil || $0.table == table }.map(\.onChange) }
        for onChange in matching { onChange() }
    }

    /// Holds a connection listening on `PostgresMigrations.changeChannel` and hands each
    /// announced table name to `deliver` (`nil` after each (re)connection), reconnecting after
    /// a second when the connection fails, until cancelled or `deliver` returns `false`.
    private static func listen(configuration: PostgresConnection.Configuration, on eventLoop: any EventLoop, logger: Logger,
                               deliver: @escaping @Sendable (String?) -> Bool) async {
        while !Task.isCancelled {
            var connection: PostgresConnection?
            do {
                let opened = try await PostgresConnection.connect(on: eventLoop, configuration: configuration, id: -1, logger: logger)
                connection = opened
                let keepGoing = try await opened.listen(on: PostgresMigrations.changeChannel) { notifications in
                    guard deliver(nil) else { return false }
                    for try await notification in notifications {
                        guard deliver(notification.payload) else { return false }
                    }
                    return true
                }
                try? await opened.close()
                if !keepGoing { return }
            } catch {
                // Closed on every way out: postgres-nio requires it before a connection goes.
                if let connection, !connection.isClosed { try? await connection.close() }
                if Task.isCancelled { return }
                logger.warning("listening for changes failed; retrying", metadata: ["error": "\(String(reflecting: error))"])
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }

    private func connect() throws -> PostgresConnection {
        let id = nextConnectionID.add(1, ordering: .relaxed).newValue
        do {
            return try PostgresConnection.connect(on: eventLoops.next(), configuration: configuration, id: id, logger: logger).wait()
        } catch {
            throw Self.databaseError(error, sql: "(connect)")
        }
    }

    // MARK: SQL

    /// `sql` rewritten for PostgreSQL (cached by text).
    func translate(_ sql: String) throws -> PostgresDialect.Statement {
        if let known = translations.withLock({ $0[sql] }) { return known }
        let translated = try PostgresDialect.translate(sql, booleans: booleanColumns, primaryKey: { try self.primaryKey($0) })
        translations.withLock {
            if $0.count > 4096 { $0.removeAll() }
            $0[sql] = translated
        }
        return translated
    }

    /// The values GRDB `arguments` bind to the parameters of `statement`, read from the
    /// arguments by GRDB's rules (`nativeValues`); only if their storage cannot be read,
    /// SQLite binds them to a `SELECT` of the same parameter tokens.
    func values(of arguments: StatementArguments, for statement: PostgresDialect.Statement) throws -> [DatabaseValue] {
        guard !statement.parameters.isEmpty else {
            if !arguments.isEmpty { throw DatabaseError(message: "wrong number of statement arguments: \(arguments)") }
            return []
        }
        let parameters = statement.parameters
        if let values = try Self.nativeValues(of: arguments, parameters: parameters) { return values }
        // SQLite returns at most 2,000 columns: a statement with more parameters (a batch of
        // rows in one INSERT, a long IN list) is read in chunks. Each chunk also names the last
        // parameter, so SQLite counts as many parameters as the arguments hold (dropped after).
        // Only numbered parameters chunk this way; named ones are never that many.
        let chunkSize = 1_000
        guard parameters.count > chunkSize, parameters.allSatisfy({ $0.hasPrefix("?") }) else {
            return try selectValues(parameters[...], arguments: arguments, extra: nil)
        }
        var values: [DatabaseValue] = []
        values.reserveCapacity(parameters.count)
        for start in stride(from: 0, to: parameters.count, by: chunkSize) {
            let end = min(start + chunkSize, parameters.count)
            values += try selectValues(parameters[start..<end], arguments: arguments, extra: end < parameters.count ? parameters.last : nil)
        }
        return values
    }

    /// The values `arguments` bind to `parameters`, read back through SQLite; `extra` is
    /// selected too (to set the parameter count) and left out of the result.
    private func selectValues(_ parameters: ArraySlice<String>, arguments: StatementArguments, extra: String?) throws -> [DatabaseValue] {
        let select = "SELECT " + (parameters + (extra.map { [$0] } ?? [])).joined(separator: ", ")
        return try compiler.inDatabase { db in
            guard let row = try Row.fetchOne(db.cachedStatement(sql: select), arguments: arguments) else { return [] }
            return Array(row.databaseValues.prefix(parameters.count))
        }
    }

    /// The SQLite SQL and arguments of a GRDB request, built against the schema.
    func compile(_ request: some FetchRequest, single: Bool) throws -> (String, StatementArguments) {
        try compiler.inDatabase { db in
            let prepared = try request.makePreparedRequest(db, forSingleResult: single)
            guard prepared.adapter == nil else { throw DatabaseError(message: "row adapters are not supported on PostgreSQL") }
            return (prepared.statement.sql, prepared.statement.arguments)
        }
    }

    /// The primary-key columns of `table`.
    func primaryKey(_ table: String) throws -> [String] {
        if let known = schema.withLock({ $0.keys[table] }) { return known }
        let columns = try compiler.inDatabase { try $0.primaryKey(table).columns }
        schema.withLock { $0.keys[table] = columns }
        return columns
    }

    /// The stored columns of `table`, in order (generated ones are computed by the server).
    func columns(_ table: String) throws -> [String] {
        if let known = schema.withLock({ $0.columns[table] }) { return known }
        let columns = try compiler.inDatabase { db in
            try String.fetchAll(db, sql: "SELECT name FROM pragma_table_xinfo(?) WHERE hidden = 0 ORDER BY cid", arguments: [table])
        }
        schema.withLock { $0.columns[table] = columns }
        return columns
    }

    /// A GRDB row holding a PostgreSQL row's columns, in order, as SQLite would give them.
    func makeRow(_ row: PostgresRow) throws -> Row {
        var columns: [(String, (any DatabaseValueConvertible)?)] = []
        columns.reserveCapacity(row.count)
        for cell in row { columns.append((cell.columnName, try Self.databaseValue(cell))) }
        return Self.orderedRow(columns)
    }

    /// GRDB's only public way to build a row with its columns in a given order (duplicate names
    /// allowed, as a join's `SELECT *` has them) is its dictionary literal, a variadic
    /// initialiser. A variadic parameter is passed as an array, so the initialiser is called
    /// with one (`PostgresStorageTests.rowsAsSQLiteGivesThem` checks order, duplicates and
    /// values). Building rows this way needs no SQLite statement per row, nor the compiler's lock.
    private static let orderedRow = unsafeBitCast(
        Row.init(dictionaryLiteral:) as ((String, (any DatabaseValueConvertible)?)...) -> Row,
        to: (@Sendable ([(String, (any DatabaseValueConvertible)?)]) -> Row).self)

    /// A PostgreSQL value as SQLite stores it: booleans as integers, numerics as integers when
    /// whole, text-like types (citext, json, unknown) as text.
    static func databaseValue(_ cell: PostgresCell) throws -> DatabaseValue {
        guard var bytes = cell.bytes else { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8, .oid:
            return try cell.decode(Int64.self).databaseValue
        case .bool:
            return (try cell.decode(Bool.self) ? 1 : 0).databaseValue
        case .float4, .float8:
            return try cell.decode(Double.self).databaseValue
        case .numeric:
            let decimal = try cell.decode(Decimal.self)
            let number = NSDecimalNumber(decimal: decimal)
            if Decimal(number.int64Value) == decimal { return number.int64Value.databaseValue }
            return NSDecimalNumber(decimal: decimal).doubleValue.databaseValue
        case .bytea:
            return Data(bytes.readBytes(length: bytes.readableBytes) ?? []).databaseValue
        case .jsonb where cell.format == .binary:
            _ = bytes.readInteger(as: UInt8.self)
            return (bytes.readString(length: bytes.readableBytes) ?? "").databaseValue
        default:
            return (bytes.readString(length: bytes.readableBytes) ?? "").databaseValue
        }
    }

    /// Splits SQL text at top-level semicolons into its statements (trigger bodies stay whole).
    static func splitStatements(_ sql: String) -> [String] {
        let tokens = SQLToken.tokenize(sql)
        guard tokens.contains(where: { $0.isSymbol(";") }) else { return [sql] }
        var statements: [String] = []
        var current: [SQLToken] = []
        var depth = 0
        for token in tokens {
            if token.isKeyword("BEGIN") || token.isKeyword("CASE") { depth += 1 }
            if token.isKeyword("END") { depth = max(0, depth - 1) }
            if token.isSymbol(";"), depth == 0 {
                if current.significant(from: 0) != nil { statements.append(current.sql) }
                current = []
                continue
            }
            current.append(token)
        }
        if current.significant(from: 0) != nil { statements.append(current.sql) }
        return statements
    }

    /// A PostgreSQL error as the GRDB `DatabaseError` SQLite would have raised, so callers
    /// that recognise constraint violations keep working.
    static func databaseError(_ error: any Error, sql: String) -> DatabaseError {
        guard let psql = error as? PSQLError else {
            return DatabaseError(resultCode: .SQLITE_IOERR, message: "PostgreSQL: \(error)", sql: sql)
        }
        let state = psql.serverInfo?[.sqlState] ?? ""
        let message = psql.serverInfo?[.message] ?? "\(psql.code)"
        let code: ResultCode = switch state {
        case "23505": .SQLITE_CONSTRAINT_UNIQUE
        case "23503": .SQLITE_CONSTRAINT_FOREIGNKEY
        case "23502": .SQLITE_CONSTRAINT_NOTNULL
        case "23514": .SQLITE_CONSTRAINT_CHECK
        case "40001", "40P01", "55P03": .SQLITE_BUSY
        case "": .SQLITE_IOERR
        default: .SQLITE_ERROR
        }
        return DatabaseError(resultCode: code, message: "PostgreSQL \(state): \(message)", sql: sql)
    }
}
