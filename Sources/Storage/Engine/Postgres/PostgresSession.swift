import Foundation
import GRDB
import Logging
import NIOCore
import PostgresNIO

/// One PostgreSQL transaction, driven synchronously from the thread running a Storage
/// transaction body (never an event loop nor the cooperative pool: `PostgresEngine` runs bodies
/// on a thread pool of its own).
final class PostgresSession {
    private let pooled: PooledConnection
    private var connection: PostgresConnection { pooled.connection }
    let engine: PostgresEngine
    /// Rows changed by the last INSERT, UPDATE or DELETE.
    private(set) var changesCount = 0
    private var commitHooks: [@Sendable () -> Void] = []

    init(pooled: PooledConnection, engine: PostgresEngine) {
        self.pooled = pooled
        self.engine = engine
    }

    // MARK: Running SQL

    /// Runs PostgreSQL SQL (already in its dialect) with `values` bound to `$1`… (the `arrays`
    /// among them as arrays), as an unnamed statement (parsed and planned for this one execution).
    @discardableResult
    func run(postgres sql: String, arrays: Set<Int> = [], _ values: [DatabaseValue] = []) throws -> [Row] {
        StatementTally.countStatement()
        let (bindings, _) = try Self.bindings(values, arrays: arrays)
        let result: PostgresQueryResult
        do {
            let future = connection.query(PostgresQuery(unsafeSQL: sql, binds: bindings), logger: engine.logger)
            result = try pooled.wait { done in future.whenComplete(done) }
        } catch {
            throw PostgresEngine.databaseError(error, sql: sql)
        }
        switch result.metadata.command {
        case "INSERT", "UPDATE", "DELETE", "MERGE":
            changesCount = result.metadata.rows ?? 0
        default: break
        }
        return try result.rows.map { try engine.makeRow($0) }
    }

    /// Runs a statement of a known kind with `values` bound to `$1`… (the `arrays` among them
    /// as arrays): queries and writes as named prepared statements, anything else unnamed.
    @discardableResult
    func run(_ sql: String, kind: PostgresDialect.Statement.Kind, arrays: Set<Int> = [], _ values: [DatabaseValue]) throws -> [Row] {
        // Statements of no known kind (`WITH …`) run unnamed, array parameters included.
        guard kind != .other else { return try run(postgres: sql, arrays: arrays, values) }
        StatementTally.countStatement()
        let (bindings, signature) = try Self.bindings(values, arrays: arrays)
        let name = engine.preparedNames.name(sql: sql, signature: signature)
        let (connection, logger) = (connection, engine.logger)
        let firstUse = !pooled.prepared.contains(name)
        // postgres-nio's prepared statements give rows, not the command tag that counts the
        // changed rows: a write returns a row for each of them instead.
        let text = kind == .command ? String(Self.trimmedForReturning(sql)) + "\nRETURNING 1" : sql
        do {
            let rows: [PostgresRow] = try pooled.wait { done in
                Task(executorPreference: PostgresCallExecutor.shared) {
                    do {
                        let rows = try await PreparedText.$current.withValue((name, text)) {
                            var rows: [PostgresRow] = []
                            for try await row in try await connection.execute(PreparedRows(bindings: bindings), logger: logger) { rows.append(row) }
                            return rows
                        }
                        done(.success(rows))
                    } catch {
                        done(.failure(error))
                    }
                }
            }
            if kind != .query { changesCount = rows.count }
            if firstUse {
                pooled.prepared.insert(name)
                if pooled.prepared.count > PooledConnection.preparedLimit { pooled.retire = true }
            }
            return kind == .command ? [] : try rows.map { try engine.makeRow($0) }
        } catch {
            // postgres-nio answers every later use of a statement whose preparation failed
            // with that failure; a plan invalidated by a schema change must be made anew.
            // Errors of executing (constraints, serialisation, data, raised) say nothing of the
            // preparation.
            let state = (error as? PSQLError)?.serverInfo?[.sqlState]
            let ofExecution = state.map { ["23", "40", "22", "P0"].contains(String($0.prefix(2))) } ?? false
            if (firstUse && !ofExecution) || state == "0A000" || state == "26000" { pooled.retire = true }
            throw PostgresEngine.databaseError(error, sql: text)
        }
    }

    /// `sql` without the spaces and semicolons it may end with, so a clause can follow.
    private static func trimmedForReturning(_ sql: String) -> Substring {
        var end = sql.endIndex
        while end > sql.startIndex, let last = sql[..<end].last, last == ";" || last.isWhitespace { end = sql.index(before: end) }
        return sql[..<end]
    }

    /// `values` as postgres-nio bindings, with a signature of their types (a statement
    /// prepared for one set of types cannot take another).
    private static func bindings(_ values: [DatabaseValue], arrays: Set<Int>) throws -> (PostgresBindings, String) {
        var bindings = PostgresBindings(capacity: values.count)
        var signature = ""
        signature.reserveCapacity(values.count)
        for (offset, value) in values.enumerated() {
            if arrays.contains(offset + 1) {
                guard case .string(let json) = value.storage else {
                    throw DatabaseError(resultCode: .SQLITE_MISMATCH, message: "a JSON array was expected, not \(value)")
                }
                bindings.append(try PostgresEngine.arrayElements(json))
                signature.append("a")
                continue
            }
            switch value.storage {
            case .null:
                bindings.appendNull()
                signature.append("n")
            // Numbers and bytes go typed (a parameter used in two places must have one type);
            // text goes untyped, so the server reads it as the column or function wants it
            // (text, citext, json, a number written as text), as SQLite's affinity would.
            case .int64(let int):
                bindings.append(int)
                signature.append("i")
            case .double(let double):
                bindings.append(double)
                signature.append("d")
            case .string(let string):
                bindings.append(UntypedText(string))
                signature.append("t")
            case .blob(let data):
                bindings.append(ByteBuffer(bytes: data))
                signature.append("b")
            }
        }
        return (bindings, signature)
    }

    /// Rows of SQLite `sql` with GRDB `arguments`, rewritten for PostgreSQL.
    func rows(sql: String, arguments: StatementArguments) throws -> [Row] {
        let statements = PostgresEngine.splitStatements(sql)
        guard statements.count > 1 else {
            let translated = try engine.translate(sql)
            return try run(translated.sql, kind: translated.kind, arrays: translated.arrays, try engine.values(of: arguments, for: translated))
        }
        // Several statements (schema changes, maintenance) take no arguments.
        guard arguments.isEmpty else { throw DatabaseError(message: "arguments for several statements at once: \(sql)") }
        var last: [Row] = []
        for statement in statements { last = try run(postgres: try engine.translate(statement).sql) }
        return last
    }

    /// Runs SQLite `sql` (one statement or several) rewritten for PostgreSQL.
    func execute(sql: String, arguments: StatementArguments) throws {
        _ = try rows(sql: sql, arguments: arguments)
    }

    // MARK: Query-interface requests

    /// Rows of a GRDB request, its SQL built by the schema compiler.
    func rows(_ request: some FetchRequest, single: Bool) throws -> [Row] {
        let (sql, arguments) = try engine.compile(request, single: single)
        return try rows(sql: sql, arguments: arguments)
    }

    /// How many rows a GRDB request selects.
    func count(_ request: some FetchRequest) throws -> Int {
        let (sql, arguments) = try engine.compile(request, single: false)
        let rows = try rows(sql: "SELECT COUNT(*) FROM (\(sql)) AS counted", arguments: arguments)
        return rows.first.map { Int.fromDatabaseValue($0[0]) ?? 0 } ?? 0
    }

    /// Deletes the rows of `table` that a GRDB request selects.
    func deleteAll(_ request: some FetchRequest, table: String) throws -> Int {
        let (sql, arguments) = try engine.compile(request, single: false)
        let key = try engine.primaryKey(table).map { "\"\($0)\"" }.joined(separator: ", ")
        try execute(sql: "DELETE FROM \"\(table)\" WHERE (\(key)) IN (SELECT \(key) FROM (\(sql)) AS doomed)", arguments: arguments)
        return changesCount
    }

    // MARK: Records

    /// Inserts a record; returns the stored row when `returning`.
    func insert<R: MutablePersistableRecord>(_ record: R, onConflict conflict: Database.ConflictResolution?, returning: Bool) throws -> Row? {
        let table = R.databaseTableName
        let values = try record.databaseDictionary
        let key = try engine.primaryKey(table)
        var columns = try engine.columns(table).filter { values[$0] != nil }
        // A NULL integer primary key asks for the next identity value, as SQLite's rowid does.
        if key.count == 1, values[key[0]]?.isNull == true { columns.removeAll { $0 == key[0] } }
        let placeholders = columns.indices.map { "$\($0 + 1)" }.joined(separator: ", ")
        var sql = "INSERT INTO \"\(table)\" (\(columns.map { "\"\($0)\"" }.joined(separator: ", "))) VALUES (\(placeholders))"
        switch conflict {
        case .ignore?:
            sql += " ON CONFLICT DO NOTHING"
        case .replace?:
            let updated = columns.filter { !key.contains($0) }
            sql += updated.isEmpty ? " ON CONFLICT DO NOTHING"
                : " ON CONFLICT (\(key.map { "\"\($0)\"" }.joined(separator: ", "))) DO UPDATE SET "
                    + updated.map { "\"\($0)\" = EXCLUDED.\"\($0)\"" }.joined(separator: ", ")
        default:
            break
        }
        if returning { sql += " RETURNING *" }
        return try run(sql, kind: returning ? .returning : .command, columns.map { values[$0] ?? .null }).first
    }

    /// Updates every column of a record's row. - Returns: Whether the row exists.
    func update<R: MutablePersistableRecord>(_ record: R) throws -> Bool {
        let table = R.databaseTableName
        let values = try record.databaseDictionary
        let key = try engine.primaryKey(table)
        let updated = try engine.columns(table).filter { values[$0] != nil && !key.contains($0) }
        guard !updated.isEmpty else { return try exists(record) }
        let assignments = updated.enumerated().map { "\"\($1)\" = $\($0 + 1)" }.joined(separator: ", ")
        let condition = key.enumerated().map { "\"\($1)\" = $\(updated.count + $0 + 1)" }.joined(separator: " AND ")
        try run("UPDATE \"\(table)\" SET \(assignments) WHERE \(condition)", kind: .command,
                updated.map { values[$0] ?? .null } + key.map { values[$0] ?? .null })
        return changesCount > 0
    }

    /// Deletes a record's row. - Returns: Whether there was one.
    func delete<R: MutablePersistableRecord>(_ record: R) throws -> Bool {
        let (condition, values) = try keyCondition(record)
        try run("DELETE FROM \"\(R.databaseTableName)\" WHERE \(condition)", kind: .command, values)
        return changesCount > 0
    }

    /// Whether a record's row exists.
    func exists<R: MutablePersistableRecord>(_ record: R) throws -> Bool {
        let (condition, values) = try keyCondition(record)
        return try !run("SELECT 1 FROM \"\(R.databaseTableName)\" WHERE \(condition) LIMIT 1", kind: .query, values).isEmpty
    }

    private func keyCondition<R: MutablePersistableRecord>(_ record: R) throws -> (String, [DatabaseValue]) {
        let values = try record.databaseDictionary
        let key = try engine.primaryKey(R.databaseTableName)
        return (key.enumerated().map { "\"\($1)\" = $\($0 + 1)" }.joined(separator: " AND "), key.map { values[$0] ?? .null })
    }

    // MARK: Decoding

    /// The first column of `row` as `T`; throws when it is NULL or not convertible.
    static func decode<T: DatabaseValueConvertible>(_ type: T.Type, _ row: Row) throws -> T {
        guard let value = T.fromDatabaseValue(row[0] as DatabaseValue) else {
            throw DatabaseError(message: "could not convert \(row[0] as DatabaseValue) to \(T.self)")
        }
        return value
    }

    /// The first column of `row` as `T`, `nil` when it is NULL.
    static func decodeOptional<T: DatabaseValueConvertible>(_ type: T.Type, _ row: Row) throws -> T? {
        let value = row[0] as DatabaseValue
        if value.isNull { return nil }
        return try decode(type, row)
    }

    // MARK: Transaction control

    /// Runs `hook` after the transaction commits.
    func afterCommit(_ hook: @escaping @Sendable () -> Void) { commitHooks.append(hook) }

    /// The hooks registered for after the commit, handed over once.
    func takeCommitHooks() -> [@Sendable () -> Void] {
        defer { commitHooks = [] }
        return commitHooks
    }
}

/// A statement argument sent as text of unspecified type, so that PostgreSQL infers its type
/// from where it is used, as a literal would be (SQLite converts by column affinity alike).
///
/// PostgreSQL's text cannot hold U+0000 and refuses the whole statement for one (error 22021).
/// What clients and servers send is cleaned of it when read (`APIParams`, `JSONParser`); any
/// that still reaches a record written here is dropped, as SQLite's binding would cut the
/// text there instead.
struct UntypedText: PostgresDynamicTypeEncodable {
    let text: String
    init(_ text: String) {
        // By scalar: `replacingOccurrences` compares characters, and keeps a NUL that a combining
        // mark follows (one character with it).
        self.text = text.utf8.contains(0) ? String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\u{0}" })) : text
    }
    var psqlType: PostgresDataType { PostgresDataType(0) }
    var psqlFormat: PostgresFormat { .text }
    func encode<JSONEncoder: PostgresJSONEncoder>(into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        byteBuffer.writeString(text)
    }
}
