import Foundation
import GRDB
import Testing
@testable import Storage

/// The rewriting of SQLite SQL for PostgreSQL, statement by statement.
@Suite("PostgreSQL dialect")
struct PostgresDialectTests {
    private func pg(_ sql: String, keys: [String: [String]] = [:]) throws -> PostgresDialect.Statement {
        try PostgresDialect.translate(sql, primaryKey: { keys[$0] ?? ["id"] })
    }

    @Test("parameters are numbered as SQLite numbers them")
    func parameters() throws {
        let statement = try pg("SELECT * FROM t WHERE a = ? AND b = ?5 AND c = ? AND d = ?1 AND e = '?' -- ?")
        #expect(statement.sql == "SELECT * FROM t WHERE a = $1 AND b = $5 AND c = $6 AND d = $1 AND e = '?' -- ?")
        #expect(statement.parameters == ["?1", "?2", "?3", "?4", "?5", "?6"])
        let named = try pg("UPDATE t SET a = :a, b = ? WHERE c = :a")
        #expect(named.sql == "UPDATE t SET a = $1, b = $2 WHERE c = $1")
        #expect(named.parameters == [":a", "?2"])
    }

    @Test("a JSON array bound for json_each becomes an array parameter, membership = ANY")
    func batchArrays() throws {
        let ids = try pg("SELECT id FROM t WHERE id IN (SELECT CAST(value AS INTEGER) FROM json_each(?)) AND a = ?")
        #expect(ids.sql == "SELECT id FROM t WHERE id = ANY (CAST($1 AS BIGINT[])) AND a = $2")
        #expect(ids.arrays == [1])
        #expect(ids.kind == .query)
        let excluded = try pg("DELETE FROM t WHERE x = ?1 AND id NOT IN (SELECT CAST(value AS INTEGER) FROM json_each(?2))")
        #expect(excluded.sql == "DELETE FROM t WHERE x = $1 AND id <> ALL (CAST($2 AS BIGINT[]))")
        #expect(excluded.arrays == [2])
        #expect(excluded.kind == .command)
        let names = try pg("SELECT * FROM tags WHERE name IN (SELECT value FROM json_each(?))")
        #expect(names.sql == "SELECT * FROM tags WHERE name = ANY (CAST($1 AS TEXT[]))")
        let joined = try pg("SELECT p.* FROM json_each(?) CROSS JOIN posts p WHERE p.id = CAST(json_each.value AS INTEGER)")
        #expect(joined.sql == "SELECT p.* FROM unnest(CAST($1 AS TEXT[])) AS json_each(value) CROSS JOIN posts p WHERE p.id = CAST(json_each.value AS BIGINT)")
        #expect(joined.arrays == [1])
        // Used as a value too: the parameter stays JSON text.
        let mixed = try pg("SELECT ?1, id FROM t WHERE id IN (SELECT CAST(value AS INTEGER) FROM json_each(?1))")
        #expect(mixed.sql == "SELECT $1, id FROM t WHERE id IN (SELECT CAST(value AS BIGINT) FROM json_array_elements_text(CAST($1 AS JSON)) AS json_each(value))")
        #expect(mixed.arrays.isEmpty)
        // A column's JSON is not an array parameter.
        #expect(try pg("SELECT value FROM t, json_each(t.list)").sql == "SELECT value FROM t, json_array_elements_text(CAST(t.list AS JSON)) AS json_each(value)")
        #expect(try pg("INSERT INTO t(a) VALUES (?) RETURNING id").kind == .returning)
        #expect(try pg("UPDATE t SET a = (SELECT b FROM u WHERE c IN (SELECT id FROM v)) WHERE id = ?").kind == .command)
        #expect(try pg("WITH x AS (SELECT 1) SELECT * FROM x").kind == .other)
    }

    @Test("GRDB's arguments are read by GRDB's rules: named by name, the rest in order")
    func arguments() throws {
        #expect(try PostgresEngine.nativeValues(of: [1, "a"], parameters: ["?1", "?2"]) == [1.databaseValue, "a".databaseValue])
        #expect(try PostgresEngine.nativeValues(of: ["a": 1, "b": 2], parameters: [":b", ":a"]) == [2.databaseValue, 1.databaseValue])
        var mixed: StatementArguments = ["a": 7]
        mixed += [8]
        #expect(try PostgresEngine.nativeValues(of: mixed, parameters: [":a", "?2"]) == [7.databaseValue, 8.databaseValue])
        #expect(throws: DatabaseError.self) { try PostgresEngine.nativeValues(of: [1, 2], parameters: ["?1"]) }
        #expect(throws: DatabaseError.self) { try PostgresEngine.nativeValues(of: [1], parameters: ["?1", "?2"]) }
        #expect(try PostgresEngine.arrayElements("[1,2, 3]") == ["1", "2", "3"])
        #expect(try PostgresEngine.arrayElements("[]") == [])
        #expect(try PostgresEngine.arrayElements(#"["a","b\"c",4]"#) == ["a", "b\"c", "4"])
        #expect(throws: DatabaseError.self) { try PostgresEngine.arrayElements("{1}") }
    }

    @Test("conflict clauses, null-safe comparisons, case-insensitive text and SQLite functions")
    func rewrites() throws {
        #expect(try pg("INSERT OR IGNORE INTO likes(a, b) VALUES (?, ?)").sql == "INSERT INTO likes(a, b) VALUES ($1, $2) ON CONFLICT DO NOTHING")
        #expect(try pg("INSERT OR REPLACE INTO node_settings(key, value) VALUES (?, ?)", keys: ["node_settings": ["key"]]).sql
                == "INSERT INTO node_settings(key, value) VALUES ($1, $2) ON CONFLICT (\"key\") DO UPDATE SET \"value\" = EXCLUDED.\"value\"")
        #expect(try pg("SELECT 1 WHERE a IS NOT b AND c IS NOT NULL AND d IS ?").sql
                == "SELECT 1 WHERE a IS DISTINCT FROM b AND c IS NOT NULL AND d IS NOT DISTINCT FROM $1")
        #expect(try pg("SELECT 1 FROM t WHERE name = ? COLLATE NOCASE AND x LIKE ?").sql == "SELECT 1 FROM t WHERE name = $1::citext AND x ILIKE $2")
        #expect(try pg("SELECT IFNULL(MAX(a), 0), MAX(a, b), MIN(1, c) FROM t").sql == "SELECT COALESCE(MAX(a), 0), GREATEST(a, b), LEAST(1, c) FROM t")
        #expect(try pg("SELECT printf('%020d', id), substr(a, -3), instr(a, '/') FROM t").sql
                == "SELECT lpad(CAST(id AS TEXT), 20, '0'), fednode_substr(a, -3), strpos(a, '/') FROM t")
        #expect(try pg("SELECT 1 WHERE flag = TRUE OR other = FALSE").sql == "SELECT 1 WHERE flag = 1 OR other = 0")
        #expect(try pg("SELECT 1 WHERE 1 AND x = 1").sql == "SELECT 1 WHERE TRUE AND x = 1")
        #expect(try pg("SELECT * FROM t WHERE ? AND (a = ?)").sql == "SELECT * FROM t WHERE ($1 <> 0) AND (a = $2)")
        #expect(try pg("SELECT p.* FROM posts p JOIN lists l WHERE l.id = ? AND p.x IN (SELECT a FROM b JOIN c ON c.id = b.c)").sql
                == "SELECT p.* FROM posts p JOIN lists l ON TRUE WHERE l.id = $1 AND p.x IN (SELECT a FROM b JOIN c ON c.id = b.c)")
        let booleans = try PostgresDialect.translate(
            "SELECT SUM(local) FROM posts p WHERE p.local AND NOT \"sensitive\" AND (bot OR p.id = ?) AND local = 1 ORDER BY local",
            booleans: ["local", "sensitive", "bot"], primaryKey: { _ in [] })
        #expect(booleans.sql
                == "SELECT SUM(local) FROM posts p WHERE (p.local <> 0) AND NOT (\"sensitive\" <> 0) AND ((bot <> 0) OR p.id = $1) AND local = 1 ORDER BY local")
    }

    @Test("schema statements: types, identities, citext, stored generated columns, triggers")
    func schema() throws {
        let dialect = PostgresSchemaDialect(triggerTables: ["t_counted": "t"])
        let compiler = try SchemaOnlyCompiler()
        let table = try dialect.translate("""
            CREATE TABLE t (
              id INTEGER PRIMARY KEY AUTOINCREMENT,
              name TEXT NOT NULL UNIQUE COLLATE NOCASE,
              locked BOOLEAN NOT NULL DEFAULT 0,
              text TEXT,
              payload BLOB,
              PRIMARY KEY (id)
            ) WITHOUT ROWID
            """, translate: compiler.translate)
        #expect(table == ["""
            CREATE TABLE t (
              id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY ,
              name CITEXT NOT NULL UNIQUE ,
              locked BIGINT NOT NULL DEFAULT 0,
              text TEXT,
              payload BYTEA,
              PRIMARY KEY (id)
            ) 
            """])
        #expect(try dialect.translate("CREATE INDEX t_by_name ON t(name COLLATE NOCASE) WHERE locked = 0", translate: compiler.translate)
                == ["CREATE INDEX t_by_name ON t((name::citext)) WHERE locked = 0"])
        #expect(try dialect.translate("ALTER TABLE q ADD COLUMN d TEXT GENERATED ALWAYS AS (lower(substr(u, 3))) VIRTUAL", translate: compiler.translate)
                == ["ALTER TABLE q ADD COLUMN d TEXT GENERATED ALWAYS AS (lower(fednode_substr(u, 3))) STORED"])
        let trigger = try dialect.translate("""
            CREATE TRIGGER t_counted AFTER UPDATE OF state ON t WHEN NEW.state IS NOT OLD.state BEGIN
              INSERT OR IGNORE INTO c(id) VALUES (NEW.id);
              UPDATE c SET n = n + 1 WHERE id = NEW.id;
            END
            """, translate: compiler.translate)
        #expect(trigger.count == 2)
        #expect(trigger[0].contains("IF NEW.state IS DISTINCT FROM OLD.state THEN"))
        #expect(trigger[0].contains("INSERT INTO c(id) VALUES (NEW.id) ON CONFLICT DO NOTHING;"))
        #expect(trigger[1] == "CREATE TRIGGER t_counted AFTER UPDATE OF state ON t FOR EACH ROW EXECUTE FUNCTION fednode_trigger_t_counted()")
        #expect(try dialect.translate("DROP TRIGGER t_counted", translate: compiler.translate) == ["DROP TRIGGER IF EXISTS t_counted ON t"])
    }
}

/// DML rewriting without a PostgreSQL engine (schema statements' embedded DML).
private struct SchemaOnlyCompiler {
    func translate(_ sql: String) throws -> String { try PostgresDialect.translate(sql, primaryKey: { _ in ["id"] }).sql }
}
