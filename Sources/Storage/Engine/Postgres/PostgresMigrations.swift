import GRDB

/// The schema on PostgreSQL, from the same list of migrations as on SQLite (`Migrations.all`):
/// each statement rewritten by `PostgresSchemaDialect`, applied migrations recorded in a
/// `grdb_migrations` table as GRDB records them on SQLite.
enum PostgresMigrations {
    /// What every migration may use: case-insensitive text for SQLite's `COLLATE NOCASE`
    /// columns, and `substr` with SQLite's meaning of a negative start (from the end).
    static let prelude = [
        "CREATE EXTENSION IF NOT EXISTS citext",
        """
        CREATE OR REPLACE FUNCTION fednode_substr(s text, start bigint) RETURNS text
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
        $$ SELECT substr(s, CAST(CASE WHEN start < 0 THEN length(s) + start + 1 ELSE start END AS integer)) $$
        """,
        """
        CREATE OR REPLACE FUNCTION fednode_substr(s text, start bigint, count bigint) RETURNS text
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
        $$ SELECT substr(s, CAST(CASE WHEN start < 0 THEN length(s) + start + 1 ELSE start END AS integer), CAST(greatest(count, 0) AS integer)) $$
        """,
        "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)",
        // Numbers the processes that open the database, so their ids differ (`Snowflake`).
        "CREATE SEQUENCE IF NOT EXISTS fednode_process_tags",
    ]

    /// The channel on which committed changes of the watched tables are announced.
    static let changeChannel = "fednode_changes"
    /// Tables whose inserts wake other processes at once (work queued, events logged).
    static let announcedInserts = ["stream_events", "inbox_queue", "delivery_queue", "push_deliveries"]
    /// Tables whose every change other processes must hear of (cached federation policy).
    static let announcedChanges = ["domain_blocks", "domain_allows", "node_settings"]

    /// What several processes on one database need beyond the shared schema, installed (again)
    /// after every migration run: changes announced with `NOTIFY` (delivered at commit, once
    /// per table and transaction), and the streaming log numbered in commit order. Its ids
    /// come from a sequence, and two processes' transactions could otherwise commit ids 11
    /// then 10: a reader past 11 would never see 10. So each row is numbered again when its
    /// transaction commits (a deferred constraint trigger), under `ProcessLock.streamLog`,
    /// held until the commit ends: appenders of all processes take turns only for that last
    /// step, after every other lock of theirs is taken, so the turn cannot deadlock with row
    /// locks taken earlier in the transactions.
    /// Their names start with `fednode_` (the schema-equivalence test leaves them out).
    static var coordination: [String] {
        var statements = [
            """
            CREATE OR REPLACE FUNCTION fednode_announce_change() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              PERFORM pg_notify('\(changeChannel)', TG_TABLE_NAME);
              RETURN NULL;
            END $$
            """,
            """
            CREATE OR REPLACE FUNCTION fednode_stream_order() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              PERFORM pg_advisory_xact_lock(\(ProcessLock.streamLog.rawValue));
              UPDATE stream_events SET id = nextval(pg_get_serial_sequence('stream_events', 'id')) WHERE id = NEW.id;
              RETURN NULL;
            END $$
            """,
            "DROP TRIGGER IF EXISTS fednode_stream_order ON stream_events",
            "DROP TRIGGER IF EXISTS fednode_stream_commit_order ON stream_events",
            """
            CREATE CONSTRAINT TRIGGER fednode_stream_commit_order AFTER INSERT ON stream_events
            DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION fednode_stream_order()
            """,
        ]
        for (tables, events) in [(announcedInserts, "INSERT"), (announcedChanges, "INSERT OR UPDATE OR DELETE")] {
            for table in tables {
                statements.append("DROP TRIGGER IF EXISTS fednode_announce ON \(table)")
                statements.append("CREATE TRIGGER fednode_announce AFTER \(events) ON \(table) FOR EACH STATEMENT EXECUTE FUNCTION fednode_announce_change()")
            }
        }
        return statements
    }

    /// Applies every migration not yet applied, in one transaction (PostgreSQL's DDL is
    /// transactional), holding an advisory lock so concurrent processes migrate once.
    /// - Returns: The identifiers applied by this call.
    static func migrate(_ engine: PostgresEngine) throws -> [String] {
        try engine.transactionBlocking(write: true) { session in
            guard case .postgres(let pg) = session.backend else { return [] }
            try session.holdUntilCommit(.migrations)
            for statement in prelude { try pg.run(postgres: statement) }
            let applied = Set(try pg.run(postgres: "SELECT identifier FROM grdb_migrations").compactMap { $0[0] as String? })
            try Migrations.refuseUnknown(applied)
            let dialect = PostgresSchemaDialect(triggerTables: PostgresSchemaDialect.triggerTables(in: Migrations.all.flatMap(\.statements)))
            var done: [String] = []
            for (identifier, statements) in Migrations.all where !applied.contains(identifier) {
                for statement in statements {
                    for translated in try dialect.translate(statement, translate: { try engine.translate($0).sql }) {
                        try pg.run(postgres: translated)
                    }
                }
                try pg.run(postgres: "INSERT INTO grdb_migrations(identifier) VALUES ($1)", [identifier.databaseValue])
                done.append(identifier)
            }
            // Reinstalled only when missing or after a migration: dropping a trigger locks its
            // table, which would stall the other processes at every start.
            let installed = try pg.run(postgres: """
                SELECT count(*) FROM pg_trigger WHERE tgname IN ('fednode_announce', 'fednode_stream_commit_order')
                """).first.flatMap { $0[0] as Int? } ?? 0
            if !done.isEmpty || installed != announcedInserts.count + announcedChanges.count + 1 {
                for statement in coordination { try pg.run(postgres: statement) }
            }
            return done
        }
    }
}

/// Rewrites SQLite schema statements (tables, indexes, triggers) for PostgreSQL; statements
/// that change data go through `PostgresDialect`.
struct PostgresSchemaDialect {
    /// The table of each trigger, for `DROP TRIGGER` (PostgreSQL names a trigger per table).
    var triggerTables: [String: String]

    /// Each trigger's table in SQLite `CREATE TRIGGER` statements.
    static func triggerTables(in statements: [String]) -> [String: String] {
        var tables: [String: String] = [:]
        for statement in statements {
            let tokens = SQLToken.tokenize(statement).filter { $0.kind != .space && $0.kind != .comment }
            guard tokens.count > 3, tokens[0].isKeyword("CREATE"), tokens[1].isKeyword("TRIGGER"),
                  let on = tokens.firstIndex(where: { $0.isKeyword("ON") }), on + 1 < tokens.count else { continue }
            tables[tokens[2].text] = tokens[on + 1].text
        }
        return tables
    }

    /// The PostgreSQL statements doing what SQLite `statement` does; `translate` rewrites a
    /// statement that changes data (`PostgresEngine.translate`).
    func translate(_ statement: String, translate: (String) throws -> String) throws -> [String] {
        let words = SQLToken.tokenize(statement).filter { $0.kind == .word }.prefix(3).map(\.keyword)
        switch (words.first, words.dropFirst().first) {
        case ("CREATE", "TABLE"):
            return [table(statement)]
        case ("ALTER", "TABLE") where words.count > 2:
            return [table(statement)]
        case ("CREATE", "INDEX"), ("CREATE", "UNIQUE"):
            return [index(statement)]
        case ("CREATE", "TRIGGER"):
            return try trigger(statement, translate: translate)
        case ("DROP", "TRIGGER"):
            let name = SQLToken.tokenize(statement).filter { $0.kind == .word || $0.kind == .quotedName }.last?.text ?? ""
            guard let table = triggerTables[name] else { return [] }
            return ["DROP TRIGGER IF EXISTS \(name) ON \(table)"]
        default:
            return try PostgresEngine.splitStatements(statement).map(translate)
        }
    }

    /// Column types as SQLite declares them, in PostgreSQL's types holding the same values.
    private static func type(_ declared: String, nocase: Bool) -> String {
        switch declared.uppercased() {
        case "INTEGER", "INT", "BIGINT", "BOOLEAN", "BOOL": "BIGINT"
        case "REAL", "DOUBLE", "FLOAT": "DOUBLE PRECISION"
        case "BLOB": "BYTEA"
        default: nocase ? "CITEXT" : "TEXT"
        }
    }

    /// `CREATE TABLE` or `ALTER TABLE … ADD COLUMN`: types, `COLLATE NOCASE` as `citext`, an
    /// integer primary key as an identity (SQLite gives a NULL one the next rowid), stored
    /// generated columns, no `WITHOUT ROWID`.
    private func table(_ statement: String) -> String {
        var tokens = SQLToken.tokenize(statement)
        // Drop WITHOUT ROWID.
        if let without = tokens.lastIndex(where: { $0.isKeyword("WITHOUT") }) {
            tokens = Array(tokens[..<without])
        }
        var definitions: [[SQLToken]]
        var prefix: [SQLToken]
        var suffix: [SQLToken] = []
        if let addIndex = tokens.firstIndex(where: { $0.isKeyword("ADD") }) {
            var start = addIndex + 1
            if let column = tokens.significant(from: start), tokens[column].isKeyword("COLUMN") { start = column + 1 }
            prefix = Array(tokens[..<start])
            definitions = [Array(tokens[start...])]
        } else if tokens.contains(where: { $0.isKeyword("RENAME") }) {
            return tokens.sql
        } else if let open = tokens.firstIndex(where: { $0.isSymbol("(") }), let close = tokens.closing(open) {
            prefix = Array(tokens[...open])
            definitions = tokens.arguments(open, close)
            suffix = Array(tokens[close...])
        } else {
            return tokens.sql
        }
        definitions = definitions.map(column)
        var out = prefix
        for (n, definition) in definitions.enumerated() {
            if n > 0 { out.append(SQLToken(kind: .symbol, text: ",")) }
            out += definition
        }
        return PostgresDialect.rewriteOperators(PostgresDialect.rewriteFunctions(out + suffix)).sql
    }

    /// One column definition (table constraints are returned unchanged).
    private func column(_ definition: [SQLToken]) -> [SQLToken] {
        guard let nameIndex = definition.significant(from: 0),
              !["PRIMARY", "UNIQUE", "FOREIGN", "CHECK", "CONSTRAINT"].contains(definition[nameIndex].keyword) else { return definition }
        var tokens = definition
        let nocase = tokens.indices.contains { i in
            tokens[i].isKeyword("COLLATE") && tokens.significant(from: i + 1).map { tokens[$0].isKeyword("NOCASE") } == true
        }
        // Remove COLLATE NOCASE (the type carries it).
        var i = 0
        while i < tokens.count {
            if tokens[i].isKeyword("COLLATE"), let n = tokens.significant(from: i + 1), tokens[n].isKeyword("NOCASE") {
                tokens.removeSubrange(i...n)
                continue
            }
            i += 1
        }
        if let typeIndex = tokens.significant(from: nameIndex + 1), tokens[typeIndex].kind == .word,
           !["PRIMARY", "NOT", "NULL", "DEFAULT", "REFERENCES", "UNIQUE", "CHECK", "GENERATED", "AS"].contains(tokens[typeIndex].keyword) {
            let integerKey = ["INTEGER", "INT"].contains(tokens[typeIndex].keyword)
                && tokens.contains { $0.isKeyword("PRIMARY") }
            tokens[typeIndex] = SQLToken(kind: .word, text: Self.type(tokens[typeIndex].text, nocase: nocase))
            if integerKey {
                tokens.removeAll { $0.isKeyword("AUTOINCREMENT") }
                tokens.insert(contentsOf: SQLToken.tokenize(" GENERATED BY DEFAULT AS IDENTITY"), at: typeIndex + 1)
            }
        }
        // Generated columns: PostgreSQL stores them.
        for j in tokens.indices where tokens[j].isKeyword("VIRTUAL") { tokens[j] = SQLToken(kind: .word, text: "STORED") }
        return tokens
    }

    /// `CREATE INDEX`: a `COLLATE NOCASE` element becomes an expression on `citext`.
    private func index(_ statement: String) -> String {
        let tokens = SQLToken.tokenize(statement)
        guard let on = tokens.firstIndex(where: { $0.isKeyword("ON") }),
              let open = tokens[on...].firstIndex(where: { $0.isSymbol("(") }), let close = tokens.closing(open) else {
            return statement
        }
        // An element that is more than a column (and an optional ASC/DESC) is an expression,
        // which PostgreSQL wants in parentheses.
        let elements = tokens.arguments(open, close).map { element -> [SQLToken] in
            let significant = element.filter { $0.kind != .space && $0.kind != .comment }
            let plain = significant.count <= 2 && significant.allSatisfy { $0.kind == .word || $0.kind == .quotedName }
            if plain { return element }
            let rewritten = PostgresDialect.rewriteOperators(PostgresDialect.rewriteFunctions(element))
            return [SQLToken(kind: .symbol, text: "(")] + rewritten + [SQLToken(kind: .symbol, text: ")")]
        }
        var out = Array(tokens[...open])
        for (n, element) in elements.enumerated() {
            if n > 0 { out.append(SQLToken(kind: .symbol, text: ",")) }
            out += element
        }
        let rest = PostgresDialect.rewriteOperators(PostgresDialect.rewriteFunctions(Array(tokens[close...])))
        return (out + rest).sql
    }

    /// `CREATE TRIGGER name AFTER event ON table [WHEN condition] BEGIN statements; END` as a
    /// PL/pgSQL function and a row trigger calling it.
    private func trigger(_ statement: String, translate: (String) throws -> String) throws -> [String] {
        let tokens = SQLToken.tokenize(statement)
        guard let begin = tokens.firstIndex(where: { $0.isKeyword("BEGIN") }),
              let end = tokens.lastIndex(where: { $0.isKeyword("END") }),
              let nameIndex = tokens.firstIndex(where: { $0.isKeyword("TRIGGER") }).flatMap({ tokens.significant(from: $0 + 1) }) else {
            throw DatabaseError(message: "cannot read trigger: \(statement)")
        }
        let name = tokens[nameIndex].text
        var header = Array(tokens[(nameIndex + 1)..<begin])
        var condition: [SQLToken] = []
        if let when = header.firstIndex(where: { $0.isKeyword("WHEN") }) {
            condition = Array(header[(when + 1)...])
            header = Array(header[..<when])
        }
        header.removeAll { $0.isKeyword("FOR") || $0.isKeyword("EACH") || $0.isKeyword("ROW") }
        let body = try PostgresEngine.splitStatements(Array(tokens[(begin + 1)..<end]).sql)
            .map { try translate($0).trimmingCharacters(in: .whitespacesAndNewlines) + ";" }
            .joined(separator: "\n  ")
        let test = condition.isEmpty ? "TRUE"
            : PostgresDialect.rewriteOperators(PostgresDialect.rewriteFunctions(condition)).sql.trimmingCharacters(in: .whitespacesAndNewlines)
        let function = "fednode_trigger_\(name)"
        return [
            """
            CREATE OR REPLACE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS $fn$
            BEGIN
              IF \(test) THEN
              \(body)
              END IF;
              RETURN NULL;
            END
            $fn$
            """,
            "CREATE TRIGGER \(name) \(header.sql.trimmingCharacters(in: .whitespacesAndNewlines)) FOR EACH ROW EXECUTE FUNCTION \(function)()",
        ]
    }
}

import Foundation
