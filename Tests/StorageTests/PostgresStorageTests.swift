import Foundation
import GRDB
import Testing
@testable import Storage

/// The schema and the storage API on PostgreSQL, against a real server
/// (`make test-postgres`; skipped when `FEDNODE_TEST_DATABASE_URL` is unset).
@Suite("Storage on PostgreSQL", .enabled(if: TestEngine.postgresURL != nil))
struct PostgresStorageTests {
    /// Tables with their columns in order, index names, trigger names.
    private struct Schema: Equatable {
        var columns: [String: [String]] = [:]
        var indexes: Set<String> = []
        var triggers: Set<String> = []
    }

    private func sqliteSchema(_ database: NodeDatabase) throws -> Schema {
        try database.readBlocking { tx in
            var schema = Schema()
            let tables = try String.fetchAll(tx.session, sql: """
                SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'grdb_migrations'
                """)
            for table in tables {
                schema.columns[table] = try Row.fetchAll(tx.session, sql: "SELECT name FROM pragma_table_xinfo(?) ORDER BY cid", arguments: [table])
                    .map { $0[0] as String }
            }
            schema.indexes = Set(try String.fetchAll(tx.session, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"))
            schema.triggers = Set(try String.fetchAll(tx.session, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger'"))
            return schema
        }
    }

    private func postgresSchema(_ database: NodeDatabase) throws -> Schema {
        try database.readBlocking { tx in
            var schema = Schema()
            let rows = try Row.fetchAll(tx.session, sql: """
                SELECT table_name, column_name FROM information_schema.columns
                WHERE table_schema = 'public' AND table_name <> 'grdb_migrations' ORDER BY table_name, ordinal_position
                """)
            for row in rows { schema.columns[row[0] as String, default: []].append(row[1] as String) }
            // Indexes the CREATE INDEX statements made (not those of primary keys and UNIQUE constraints).
            schema.indexes = Set(try String.fetchAll(tx.session, sql: """
                SELECT i.relname FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_namespace n ON n.oid = i.relnamespace
                WHERE n.nspname = 'public' AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)
                """))
            // Less PostgreSQL's own coordination triggers (`fednode_…`: change announcements, the
            // streaming log's order), which have no SQLite counterpart.
            schema.triggers = Set(try String.fetchAll(tx.session, sql: """
                SELECT DISTINCT trigger_name FROM information_schema.triggers
                WHERE trigger_schema = 'public' AND trigger_name NOT LIKE 'fednode\\_%'
                """))
            return schema
        }
    }

    @Test("the migrations give PostgreSQL the same tables, columns, indexes and triggers as SQLite")
    func sameSchema() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let sqlite = try sqliteSchema(TestEngine.sqlite.open(dir))
        let postgres = try postgresSchema(TestEngine.postgres.open(dir))
        #expect(postgres.columns.keys.sorted() == sqlite.columns.keys.sorted())
        for (table, columns) in sqlite.columns { #expect(postgres.columns[table] == columns, "columns of \(table)") }
        #expect(postgres.indexes == sqlite.indexes)
        #expect(postgres.triggers == sqlite.triggers)
    }

    @Test("migrating again applies nothing; every known migration is recorded")
    func migrateAgain() throws {
        let url = try TestEngine.freshPostgresDatabase()
        let first = try NodeDatabase(url: url, migrate: false)
        #expect(try first.migrate() == NodeDatabase.knownMigrations)
        let second = try NodeDatabase(url: url, migrate: false)
        #expect(try second.migrate() == [])
    }

    @Test("a unique violation is the constraint error SQLite gives, and rolls back the whole transaction")
    func constraintErrors() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let database = try TestEngine.postgres.open(dir)
        let alice = Account(username: "alice", domain: nil, uri: "https://local.example/users/alice")
        try database.writeBlocking { try $0.accounts.insert(alice) }
        #expect(throws: DatabaseError.self) {
            try database.writeBlocking { tx in
                try tx.accounts.insert(Account(username: "bob", domain: nil, uri: "https://local.example/users/bob"))
                try tx.accounts.insert(Account(username: "ALICE", domain: nil, uri: "https://local.example/users/alice2"))
            }
        }
        #expect(try database.readBlocking { try $0.accounts.find(uri: "https://local.example/users/bob") } == nil)
        #expect(try database.readBlocking { try $0.accounts.find(uri: alice.uri) }?.username == "alice")
    }

    @Test("rows keep the server's column order, duplicate names and SQLite's value types")
    func rowsAsSQLiteGivesThem() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let database = try TestEngine.postgres.open(dir)
        let row = try database.readBlocking { tx in
            try Row.fetchOne(tx.session, sql: """
                SELECT 2 AS b, 'x' AS a, 3 AS b, NULL AS c, 1.5 AS d, TRUE AS e, CAST(7 AS NUMERIC) AS f, CAST('\\x0102' AS BYTEA) AS g
                """)
        }
        let fetched = try #require(row)
        #expect(Array(fetched.columnNames) == ["b", "a", "b", "c", "d", "e", "f", "g"])
        let expected: [DatabaseValue] = [
            2.databaseValue, "x".databaseValue, 3.databaseValue, .null, 1.5.databaseValue, 1.databaseValue, 7.databaseValue,
            Data([1, 2]).databaseValue,
        ]
        #expect(Array(fetched.databaseValues) == expected)
        #expect(fetched["b"] as Int == 2)
        #expect(fetched[2] as Int == 3)
        let empty = try database.readBlocking { tx in try Row.fetchAll(tx.session, sql: "SELECT 1 AS one WHERE FALSE") }
        #expect(empty.isEmpty)
    }
}
