import GRDB

// The GRDB fetching and persistence methods the aggregates use, taking an `SQLSession` in
// place of a GRDB `Database`: on SQLite each forwards to GRDB (raw SQL through the
// connection's statement cache, `StatementBudget`); on PostgreSQL GRDB still builds the SQL
// (against `PostgresSession`'s schema-only SQLite compiler) and decodes the records, and
// `PostgresSession` runs the SQL.

// MARK: Requests (query interface)

extension FetchRequest where RowDecoder: FetchableRecord {
    public func fetchAll(_ s: SQLSession) throws -> [RowDecoder] {
        switch s.backend {
        case .sqlite(let db): try fetchAll(db)
        case .postgres(let pg): try pg.rows(self, single: false).map { try RowDecoder(row: $0) }
        }
    }

    public func fetchOne(_ s: SQLSession) throws -> RowDecoder? {
        switch s.backend {
        case .sqlite(let db): try fetchOne(db)
        case .postgres(let pg): try pg.rows(self, single: true).first.map { try RowDecoder(row: $0) }
        }
    }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible {
    public func fetchAll(_ s: SQLSession) throws -> [RowDecoder] {
        switch s.backend {
        case .sqlite(let db): try fetchAll(db)
        case .postgres(let pg): try pg.rows(self, single: false).map { try PostgresSession.decode(RowDecoder.self, $0) }
        }
    }

    public func fetchOne(_ s: SQLSession) throws -> RowDecoder? {
        switch s.backend {
        case .sqlite(let db): try fetchOne(db)
        case .postgres(let pg): try pg.rows(self, single: true).first.flatMap { try PostgresSession.decodeOptional(RowDecoder.self, $0) }
        }
    }

    public func fetchSet(_ s: SQLSession) throws -> Set<RowDecoder> where RowDecoder: Hashable {
        Set(try fetchAll(s))
    }
}

extension FetchRequest {
    public func fetchCount(_ s: SQLSession) throws -> Int {
        switch s.backend {
        case .sqlite(let db): try fetchCount(db)
        case .postgres(let pg): try pg.count(self)
        }
    }
}

extension QueryInterfaceRequest where RowDecoder: TableRecord {
    /// Deletes the rows the request selects.
    @discardableResult
    public func deleteAll(_ s: SQLSession) throws -> Int {
        switch s.backend {
        case .sqlite(let db): try deleteAll(db)
        case .postgres(let pg): try pg.deleteAll(self, table: RowDecoder.databaseTableName)
        }
    }
}

extension TableRecord {
    /// Deletes every row of the table.
    @discardableResult
    public static func deleteAll(_ s: SQLSession) throws -> Int { try all().deleteAll(s) }

    /// Counts the rows of the table.
    public static func fetchCount(_ s: SQLSession) throws -> Int { try all().fetchCount(s) }
}

extension FetchableRecord where Self: TableRecord {
    /// The record whose primary key is `key`.
    public static func fetchOne(_ s: SQLSession, key: some DatabaseValueConvertible) throws -> Self? {
        if case .sqlite(let db) = s.backend, let column = try KeyLookup.column(of: databaseTableName, in: db) {
            return try fetchOne(StatementBudget.statement(KeyLookup.select(databaseTableName, column), in: db), arguments: [key])
        }
        return try filter(key: key).fetchOne(s)
    }

    /// Every record of the table.
    public static func fetchAll(_ s: SQLSession) throws -> [Self] { try all().fetchAll(s) }

    /// A record of the table (the first GRDB's default order gives), if any.
    public static func fetchOne(_ s: SQLSession) throws -> Self? { try all().fetchOne(s) }

    /// The record whose (composite) primary key is `key`.
    public static func fetchOne(_ s: SQLSession, key: [String: (any DatabaseValueConvertible)?]) throws -> Self? {
        try filter(key: key).fetchOne(s)
    }

    /// The records whose primary keys are among `keys`.
    public static func fetchAll(_ s: SQLSession, keys: some Collection<some DatabaseValueConvertible>) throws -> [Self] {
        guard !keys.isEmpty else { return [] }
        return try filter(keys: keys).fetchAll(s)
    }
}

extension TableRecord {
    /// Whether a row has the primary key `key`.
    public static func exists(_ s: SQLSession, key: some DatabaseValueConvertible) throws -> Bool {
        if case .sqlite(let db) = s.backend, let column = try KeyLookup.column(of: databaseTableName, in: db) {
            return try Bool.fetchOne(StatementBudget.statement(KeyLookup.exists(databaseTableName, column), in: db), arguments: [key]) ?? false
        }
        return try filter(key: key).fetchCount(s) > 0
    }

    /// Deletes the row whose id is `id`.
    @discardableResult
    public static func deleteOne(_ s: SQLSession, id: Self.ID) throws -> Bool where Self: Identifiable, Self.ID: DatabaseValueConvertible {
        try filter(key: id).deleteAll(s) > 0
    }

    /// Deletes the row whose primary key is `key`.
    @discardableResult
    public static func deleteOne(_ s: SQLSession, key: some DatabaseValueConvertible) throws -> Bool {
        try filter(key: key).deleteAll(s) > 0
    }
}

// MARK: Raw SQL

extension FetchableRecord {
    public static func fetchAll(_ s: SQLSession, sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Self] {
        switch s.backend {
        case .sqlite(let db): try fetchAll(StatementBudget.statement(sql, in: db), arguments: arguments)
        case .postgres(let pg): try pg.rows(sql: sql, arguments: arguments).map { try Self(row: $0) }
        }
    }

    public static func fetchOne(_ s: SQLSession, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Self? {
        switch s.backend {
        case .sqlite(let db): try fetchOne(StatementBudget.statement(sql, in: db), arguments: arguments)
        case .postgres(let pg): try pg.rows(sql: sql, arguments: arguments).first.map { try Self(row: $0) }
        }
    }

    public static func fetchAll(_ statement: CachedSQL, arguments: StatementArguments = StatementArguments()) throws -> [Self] {
        if let sqlite = try statement.sqliteStatement() { return try fetchAll(sqlite, arguments: arguments) }
        return try fetchAll(statement.session, sql: statement.sql, arguments: arguments)
    }

    public static func fetchOne(_ statement: CachedSQL, arguments: StatementArguments = StatementArguments()) throws -> Self? {
        if let sqlite = try statement.sqliteStatement() { return try fetchOne(sqlite, arguments: arguments) }
        return try fetchOne(statement.session, sql: statement.sql, arguments: arguments)
    }
}

extension Row {
    public static func fetchAll(_ s: SQLSession, sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Row] {
        switch s.backend {
        case .sqlite(let db): try fetchAll(StatementBudget.statement(sql, in: db), arguments: arguments)
        case .postgres(let pg): try pg.rows(sql: sql, arguments: arguments)
        }
    }

    public static func fetchOne(_ s: SQLSession, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Row? {
        switch s.backend {
        case .sqlite(let db): try fetchOne(StatementBudget.statement(sql, in: db), arguments: arguments)
        case .postgres(let pg): try pg.rows(sql: sql, arguments: arguments).first
        }
    }

    /// Rows of a statement, read one at a time (on PostgreSQL, already fetched).
    public static func fetchCursor(_ statement: CachedSQL, arguments: StatementArguments = StatementArguments()) throws -> AnyCursor<Row> {
        // On SQLite, GRDB reuses one Row for every step: read each row before the next step.
        switch statement.session.backend {
        case .sqlite(let db): AnyCursor(try Row.fetchCursor(db.cachedStatement(sql: statement.sql), arguments: arguments))
        case .postgres(let pg): AnyCursor(try pg.rows(sql: statement.sql, arguments: arguments))
        }
    }
}

extension DatabaseValueConvertible {
    public static func fetchAll(_ s: SQLSession, sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Self] {
        switch s.backend {
        case .sqlite(let db): try fetchAll(StatementBudget.statement(sql, in: db), arguments: arguments)
        case .postgres(let pg): try pg.rows(sql: sql, arguments: arguments).map { try PostgresSession.decode(Self.self, $0) }
        }
    }

    public static func fetchOne(_ s: SQLSession, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Self? {
        switch s.backend {
        case .sqlite(let db): try fetchOne(StatementBudget.statement(sql, in: db), arguments: arguments)
        case .postgres(let pg): try pg.rows(sql: sql, arguments: arguments).first.flatMap { try PostgresSession.decodeOptional(Self.self, $0) }
        }
    }

    public static func fetchSet(_ s: SQLSession, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Set<Self> where Self: Hashable {
        Set(try fetchAll(s, sql: sql, arguments: arguments))
    }

    public static func fetchAll(_ statement: CachedSQL, arguments: StatementArguments = StatementArguments()) throws -> [Self] {
        if let sqlite = try statement.sqliteStatement() { return try fetchAll(sqlite, arguments: arguments) }
        return try fetchAll(statement.session, sql: statement.sql, arguments: arguments)
    }

    public static func fetchOne(_ statement: CachedSQL, arguments: StatementArguments = StatementArguments()) throws -> Self? {
        if let sqlite = try statement.sqliteStatement() { return try fetchOne(sqlite, arguments: arguments) }
        return try fetchOne(statement.session, sql: statement.sql, arguments: arguments)
    }
}

extension Optional where Wrapped: DatabaseValueConvertible {
    public static func fetchAll(_ s: SQLSession, sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Wrapped?] {
        switch s.backend {
        case .sqlite(let db): try fetchAll(StatementBudget.statement(sql, in: db), arguments: arguments)
        case .postgres(let pg): try pg.rows(sql: sql, arguments: arguments).map { try PostgresSession.decodeOptional(Wrapped.self, $0) }
        }
    }
}

// MARK: Records

extension PersistableRecord {
    /// Inserts the record; with `onConflict`, what a uniqueness conflict does instead of failing.
    public func insert(_ s: SQLSession, onConflict conflict: Database.ConflictResolution? = nil) throws {
        switch s.backend {
        case .sqlite(let db): try insert(db, onConflict: conflict)
        case .postgres(let pg): _ = try pg.insert(self, onConflict: conflict, returning: false)
        }
    }

    /// Updates the record's row when it exists, inserts it otherwise.
    public func save(_ s: SQLSession) throws {
        switch s.backend {
        case .sqlite(let db): try save(db)
        case .postgres(let pg): if try !pg.update(self) { _ = try pg.insert(self, onConflict: nil, returning: false) }
        }
    }
}

extension MutablePersistableRecord {
    /// Updates every column of the record's row; throws `RecordError.recordNotFound` when there is none.
    public func update(_ s: SQLSession) throws {
        switch s.backend {
        case .sqlite(let db): try update(db)
        case .postgres(let pg): guard try pg.update(self) else { throw RecordError.recordNotFound(databaseTableName: Self.databaseTableName, key: [:]) }
        }
    }

    /// Deletes the record's row.
    @discardableResult
    public func delete(_ s: SQLSession) throws -> Bool {
        switch s.backend {
        case .sqlite(let db): try delete(db)
        case .postgres(let pg): try pg.delete(self)
        }
    }

    /// Whether the record's row exists.
    public func exists(_ s: SQLSession) throws -> Bool {
        switch s.backend {
        case .sqlite(let db): try exists(db)
        case .postgres(let pg): try pg.exists(self)
        }
    }
}

extension MutablePersistableRecord where Self: FetchableRecord {
    /// Inserts the record and returns it as stored (with the id an auto-incremented table gave it).
    public func inserted(_ s: SQLSession, onConflict conflict: Database.ConflictResolution? = nil) throws -> Self {
        switch s.backend {
        case .sqlite(let db): return try inserted(db, onConflict: conflict)
        case .postgres(let pg):
            guard let row = try pg.insert(self, onConflict: conflict, returning: true) else { return self }
            return try Self(row: row)
        }
    }
}

/// Lookups by a one-column primary key as SQL of their own, run through the statement cache:
/// GRDB's query interface prepares the SQL it generates at every call, and finding a post or
/// an account by id is among the commonest reads of a request.
enum KeyLookup {
    /// The one primary-key column of `table` (GRDB's cached schema), or `nil` for a composite key.
    static func column(of table: String, in db: Database) throws -> String? {
        let key = try db.primaryKey(table)
        return key.columns.count == 1 ? key.columns[0] : nil
    }

    /// The row of `table` whose `column` is the one argument.
    static func select(_ table: String, _ column: String) -> String {
        "SELECT * FROM \(SQLIdentifier.quoted(table)) WHERE \(SQLIdentifier.quoted(column)) = ?"
    }

    /// Whether `table` has a row whose `column` is the one argument.
    static func exists(_ table: String, _ column: String) -> String {
        "SELECT EXISTS (SELECT 1 FROM \(SQLIdentifier.quoted(table)) WHERE \(SQLIdentifier.quoted(column)) = ?)"
    }
}

/// Names in SQL text.
enum SQLIdentifier {
    /// `name` as an SQL identifier, double-quoted with any `"` in it doubled (on both engines).
    static func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}
