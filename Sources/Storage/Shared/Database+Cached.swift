import GRDB

extension Database {
    /// Executes one statement of constant SQL through the connection's statement cache, so it
    /// is prepared once per connection rather than at every call: preparing runs SQLite's
    /// parser and GRDB's authorizer over every column the statement and its triggers touch,
    /// which costs more than running a small write. Only for SQL whose text never varies
    /// (no value or list spliced in): every distinct text stays cached for the connection's life.
    func execute(cached sql: String, arguments: StatementArguments = StatementArguments()) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}
