import Foundation
import GRDB
import Testing
@testable import Storage

/// How statements run: counted per unit of work on both engines; on PostgreSQL prepared once
/// per connection, batch lists bound as arrays, and a failed first use not left behind.
@Suite("Statements: counting, preparing, array parameters")
struct StatementEngineTests {
    @Test("a tally counts the statements of the transactions begun in its task, not BEGIN and COMMIT", arguments: TestEngine.all)
    func tally(engine: TestEngine) async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let database = try engine.open(dir)
        let tally = StatementTally()
        try await StatementTally.$current.withValue(tally) {
            _ = try await database.read { tx in
                _ = try Int.fetchOne(tx.session, sql: "SELECT 1")
                _ = try Int.fetchOne(tx.session, sql: "SELECT count(*) FROM accounts")
            }
            try await database.write { tx in try tx.session.execute(sql: "UPDATE accounts SET note = note WHERE id = -1") }
        }
        #expect(tally.count == 3)
        // Outside the task's tally nothing is counted.
        _ = try await database.read { tx in try Int.fetchOne(tx.session, sql: "SELECT 1") }
        #expect(tally.count == 3)
    }

    @Test("batch ids and strings bound as one list find their rows, none for an empty list", arguments: TestEngine.all)
    func batchLists(engine: TestEngine) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let database = try engine.open(dir)
        try database.writeBlocking { tx in
            for n in 1...5 {
                try tx.session.execute(sql: "INSERT INTO hashtags (name, created_at) VALUES (?, ?)", arguments: ["tag\(n)", Date()])
            }
        }
        try database.readBlocking { tx in
            let ids = try Int64.fetchAll(tx.session, sql: "SELECT id FROM hashtags ORDER BY id")
            let some = try Int64.fetchAll(tx.session, sql: "SELECT id FROM hashtags WHERE id IN (\(BatchQuery.ids)) ORDER BY id",
                                          arguments: [BatchQuery.json([ids[1], ids[3], 999_999])])
            #expect(some == [ids[1], ids[3]])
            let others = try Int64.fetchAll(tx.session, sql: "SELECT id FROM hashtags WHERE id NOT IN (\(BatchQuery.ids)) ORDER BY id",
                                            arguments: [BatchQuery.json([ids[0]])])
            #expect(others == Array(ids.dropFirst()))
            let none = try Int64.fetchAll(tx.session, sql: "SELECT id FROM hashtags WHERE id IN (\(BatchQuery.ids))", arguments: ["[]"])
            #expect(none.isEmpty)
            let names = try String.fetchAll(tx.session, sql: "SELECT name FROM hashtags WHERE name IN (\(BatchQuery.strings)) ORDER BY name",
                                            arguments: [BatchQuery.json(["tag2", "tag5", "tag\"quoted"])])
            #expect(names == ["tag2", "tag5"])
            let joined = try String.fetchAll(tx.session, sql: """
                SELECT t.name FROM \(BatchQuery.idTable) CROSS JOIN hashtags t WHERE t.id = \(BatchQuery.idValue) ORDER BY t.name
                """, arguments: [BatchQuery.json([ids[4], ids[0]])])
            #expect(joined == ["tag1", "tag5"])
        }
    }

    @Test("PostgreSQL prepares a statement once per connection and reuses it",
          .enabled(if: TestEngine.postgresURL != nil))
    func preparedOnce() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let database = try TestEngine.postgres.open(dir)
        let sql = "SELECT count(*) FROM accounts WHERE id > ?"
        let prepared = "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE 'SELECT count(*) FROM accounts WHERE id > $1%'"
        let counts = try database.readBlocking { tx in
            _ = try Int.fetchOne(tx.session, sql: sql, arguments: [0])
            let first = try Int.fetchOne(tx.session, sql: prepared) ?? -1
            _ = try Int.fetchOne(tx.session, sql: sql, arguments: [5])
            _ = try Int.fetchOne(tx.session, sql: sql, arguments: [7])
            return (first, try Int.fetchOne(tx.session, sql: prepared) ?? -1)
        }
        #expect(counts.0 == 1)
        #expect(counts.1 == 1)
    }

    @Test("PostgreSQL: a statement that fails its first use fails alike again, and the others run; writes count their rows",
          .enabled(if: TestEngine.postgresURL != nil))
    func failedFirstUse() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let database = try TestEngine.postgres.open(dir)
        for _ in 0..<3 {
            #expect(throws: DatabaseError.self) {
                try database.readBlocking { tx in _ = try Int.fetchOne(tx.session, sql: "SELECT no_such_column FROM accounts WHERE id = ?", arguments: [1]) }
            }
            #expect(try database.readBlocking { tx in try Int.fetchOne(tx.session, sql: "SELECT count(*) FROM accounts WHERE id > ?", arguments: [0]) } != nil)
        }
        let changed = try database.writeBlocking { tx in
            for n in 1...3 {
                try tx.session.execute(sql: "INSERT INTO hashtags (name, created_at) VALUES (?, ?)", arguments: ["t\(n)", Date()])
            }
            try tx.session.execute(sql: "UPDATE hashtags SET name = name || ? WHERE name LIKE ?", arguments: ["x", "t%"])
            let updated = tx.session.changesCount
            try tx.session.execute(sql: "INSERT OR IGNORE INTO hashtags (name, created_at) VALUES (?, ?)", arguments: ["t1x", Date()])
            return (updated, tx.session.changesCount)
        }
        #expect(changed.0 == 3)
        #expect(changed.1 == 0)
    }
}

@Suite("A database from a newer version")
struct NewerSchemaTests {
    @Test("a schema with a step this build does not know is refused at start, naming the step", arguments: TestEngine.all)
    func refused(engine: TestEngine) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let database = try engine.open(dir)
        try database.writeBlocking { tx in
            try tx.session.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: ["2099-01-01-from-the-future"])
        }
        do {
            try database.migrate()
            Issue.record("migrated a database from a newer version")
        } catch {
            #expect("\(error)".contains("2099-01-01-from-the-future"))
            #expect("\(error)".contains("newer fednode"))
        }
    }
}
