import GRDB

/// One read or write transaction's view of the node's data. Every query the node runs is a
/// method of the aggregate it concerns (`tx.accounts`, `tx.posts`, `tx.follows`, ...), so the
/// SQL lives in this module only and an action spanning several aggregates still commits or
/// rolls back as one, on SQLite or PostgreSQL alike.
///
/// A `Transaction` exists only inside `NodeDatabase.read`/`write` and must not escape them.
public struct Transaction {
    /// The connection the transaction runs on: for Storage's aggregates, and for tests and
    /// tools that inspect rows directly (node code goes through the aggregates).
    public let session: SQLSession

    /// Wraps a GRDB connection that is inside a transaction.
    public init(_ db: GRDB.Database) { session = SQLSession(db) }

    /// Wraps a session that is inside a transaction.
    public init(_ session: SQLSession) { self.session = session }

    /// The GRDB connection, on SQLite (tests that inspect the file directly).
    var grdb: GRDB.Database {
        guard let db = session.sqlite else { preconditionFailure("a GRDB connection exists on SQLite only") }
        return db
    }
}
