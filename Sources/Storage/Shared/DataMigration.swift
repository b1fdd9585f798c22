import Foundation
import GRDB

/// Copies a node's data from one database into another, SQLite or PostgreSQL either way
/// (`fednode migrate-data`): a community that outgrows SQLite moves to PostgreSQL without
/// losing anything. The target must be empty; both are migrated to the current schema first.
///
/// The copy runs in one read transaction of the source (one consistent snapshot) and one write
/// transaction of the target, so the target gets the whole data or nothing. Tables go parents
/// first (foreign keys), rows in primary-key order (snowflake ids put a post's parent before
/// it). The target's triggers are off during the copy: the kept counters and the streaming log
/// are copied as they are, not recounted by every inserted row.
public enum DataMigration {
    /// Rows copied per table.
    public struct Report: Sendable, Equatable {
        /// Table name and number of rows, in the order the tables were copied.
        public var tables: [(table: String, rows: Int)]

        /// Rows copied in all.
        public var totalRows: Int { tables.reduce(0) { $0 + $1.rows } }

        public static func == (a: Report, b: Report) -> Bool {
            a.tables.map(\.table) == b.tables.map(\.table) && a.tables.map(\.rows) == b.tables.map(\.rows)
        }
    }

    /// A table of the schema: its copyable columns (generated ones excluded) and primary key.
    struct Table {
        let name: String
        let columns: [String]
        let key: [String]
    }

    /// Every table of the current schema, parents before the tables referring to them.
    static func tables() throws -> [Table] {
        let schema = try DatabaseQueue()
        try Migrations.migrator.migrate(schema)
        return try schema.read { db in
            let names = try String.fetchAll(db, sql: """
                SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'grdb_migrations' ORDER BY name
                """)
            var parents: [String: Set<String>] = [:]
            var tables: [String: Table] = [:]
            for name in names {
                let columns = try Row.fetchAll(db, sql: "SELECT name FROM pragma_table_xinfo(?) WHERE hidden = 0 ORDER BY cid", arguments: [name])
                    .map { $0[0] as String }
                tables[name] = Table(name: name, columns: columns, key: try db.primaryKey(name).columns)
                parents[name] = Set(try String.fetchAll(db, sql: "SELECT \"table\" FROM pragma_foreign_key_list(?)", arguments: [name]))
                    .subtracting([name])
            }
            var ordered: [Table] = []
            var placed: Set<String> = []
            while ordered.count < names.count {
                guard let next = names.first(where: { !placed.contains($0) && parents[$0, default: []].isSubset(of: placed) }) else {
                    throw StorageError.database("the schema's foreign keys form a cycle")
                }
                ordered.append(tables[next]!)
                placed.insert(next)
            }
            return ordered
        }
    }

    /// Copies everything from `source` into `target`.
    /// - Parameter progress: Told each table's name and row count once it is copied.
    /// - Throws: `StorageError.database` when the target is not empty, or the copy fails
    ///   (nothing is written to the target then).
    @discardableResult
    public static func copy(from source: NodeDatabase, to target: NodeDatabase,
                            progress: (String, Int) -> Void = { _, _ in }) throws -> Report {
        try source.migrate()
        try target.migrate()
        let tables = try tables()
        let report = try source.readBlocking { from in
            try target.writeBlocking { to in
                for table in tables where table.name != "node_settings" {
                    if try Int.fetchOne(to.session, sql: "SELECT COUNT(*) FROM \(SQLIdentifier.quoted(table.name))") ?? 0 > 0 {
                        throw StorageError.database("the target database is not empty (\(table.name) has rows): migrate into a new database")
                    }
                }
                let restoreTriggers = try disableTriggers(in: to.session, tables: tables)
                var report = Report(tables: [])
                for table in tables {
                    let rows = try copy(table, from: from.session, to: to.session)
                    report.tables.append((table.name, rows))
                    progress(table.name, rows)
                }
                try restoreTriggers()
                try advanceIdentities(in: to.session, tables: tables)
                return report
            }
        }
        // The copy is done and committed: statistics that fail now are autovacuum's to gather.
        if target.isPostgres { try? gatherStatistics(in: target) }
        return report
    }

    /// On PostgreSQL, gathers the planner's statistics of the copied tables at once. Until
    /// autovacuum gets to them the planner guesses at their sizes, and a timeline page took
    /// 0.7 s instead of 30 ms on a freshly copied 10k-post node. (SQLite plans without them.)
    private static func gatherStatistics(in database: NodeDatabase) throws {
        try database.writeBlocking { tx in
            guard case .postgres(let pg) = tx.session.backend else { return }
            try pg.run(postgres: "ANALYZE")
        }
    }

    /// Copies one table in batches; returns its number of rows.
    private static func copy(_ table: Table, from source: SQLSession, to target: SQLSession) throws -> Int {
        let columns = table.columns.map(SQLIdentifier.quoted).joined(separator: ", ")
        let order = table.key.map(SQLIdentifier.quoted).joined(separator: ", ")
        let batch = max(1, min(200, 30_000 / max(1, table.columns.count)))
        var copied = 0
        // Settings the target's migrations wrote are replaced by the source's.
        let insert = table.name == "node_settings" ? "INSERT OR REPLACE INTO" : "INSERT INTO"
        while true {
            let rows = try Row.fetchAll(source, sql: "SELECT \(columns) FROM \(SQLIdentifier.quoted(table.name)) ORDER BY \(order) LIMIT ? OFFSET ?",
                                        arguments: [batch, copied])
            guard !rows.isEmpty else { return copied }
            let tuple = "(" + Array(repeating: "?", count: table.columns.count).joined(separator: ", ") + ")"
            let values = rows.flatMap { row in table.columns.indices.map { row[$0] as DatabaseValue } }
            try target.execute(sql: "\(insert) \(SQLIdentifier.quoted(table.name)) (\(columns)) VALUES " + Array(repeating: tuple, count: rows.count).joined(separator: ", "),
                               arguments: StatementArguments(values))
            copied += rows.count
        }
    }

    /// Turns the target's triggers off; returns what turns them back on (same transaction).
    private static func disableTriggers(in db: SQLSession, tables: [Table]) throws -> () throws -> Void {
        switch db.backend {
        case .postgres(let pg):
            for table in tables { try pg.run(postgres: "ALTER TABLE \(SQLIdentifier.quoted(table.name)) DISABLE TRIGGER USER") }
            return {
                for table in tables { try pg.run(postgres: "ALTER TABLE \(SQLIdentifier.quoted(table.name)) ENABLE TRIGGER USER") }
            }
        case .sqlite(let sqlite):
            // SQLite cannot switch triggers off: they are dropped and made again from their own SQL.
            let triggers = try Row.fetchAll(sqlite, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")
                .map { ($0[0] as String, $0[1] as String) }
            for (name, _) in triggers { try sqlite.execute(sql: "DROP TRIGGER \(SQLIdentifier.quoted(name))") }
            return {
                for (_, sql) in triggers { try sqlite.execute(sql: sql) }
            }
        }
    }

    /// On PostgreSQL, moves each identity past the largest id copied, so new rows get new ids.
    private static func advanceIdentities(in db: SQLSession, tables: [Table]) throws {
        guard case .postgres(let pg) = db.backend else { return }
        for table in tables where table.key.count == 1 {
            let sequence = try pg.run(postgres: "SELECT pg_get_serial_sequence($1, $2)", [table.name.databaseValue, table.key[0].databaseValue])
            guard let name = sequence.first.flatMap({ $0[0] as String? }) else { continue }
            try pg.run(postgres: "SELECT setval($1, COALESCE((SELECT MAX(\(SQLIdentifier.quoted(table.key[0]))) FROM \(SQLIdentifier.quoted(table.name))), 0) + 1, false)",
                       [name.databaseValue])
        }
    }

}
