import GRDB
import Synchronization

/// The statements a SQLite connection keeps prepared for the SQL run through `SQLSession`,
/// bounded.
///
/// Preparing a statement runs SQLite's parser and GRDB's authorizer over every column it
/// touches, which costs more than running most reads: a profile's statuses spent 29 % of their
/// CPU preparing the page's one query again at every request (docs/benchmarks-history.md).
/// So raw queries (`fetchAll(_:sql:arguments:)` and the like) are taken from the connection's
/// statement cache too, not only the constant SQL of `SQLSession.cachedStatement`. That cache
/// keeps every text it ever saw, and a text that carried values instead of parameters would
/// never repeat: once a connection has cached `limit` raw texts, its caches are emptied and
/// counting starts again, so memory stays bounded whatever SQL is run.
enum StatementBudget {
    /// Distinct texts a connection caches before its caches are emptied (the code's SQL, in
    /// all the shapes its optional clauses give, stays well below it).
    static let limit = 512

    /// What is known of one connection's cache (read and written under the lock only).
    private struct Entry: @unchecked Sendable {
        weak var connection: Database?
        var texts: Set<String> = []
    }

    /// The texts cached on each open connection since its caches were last emptied.
    private static let entries = Mutex<[ObjectIdentifier: Entry]>([:])

    /// How many raw texts `db` has cached since its caches were last emptied (for tests).
    static func cachedCount(on db: Database) -> Int {
        entries.withLock { entries in entries[ObjectIdentifier(db)].flatMap { $0.connection === db ? $0.texts.count : nil } ?? 0 }
    }

    /// The prepared statement for `sql` on `db`, from its cache.
    static func statement(_ sql: String, in db: Database) throws -> Statement {
        let key = ObjectIdentifier(db)
        let full = entries.withLock { entries -> Bool in
            if let entry = entries[key], entry.connection === db {
                if entry.texts.contains(sql) { return false }
                if entry.texts.count >= limit {
                    entries[key]?.texts = [sql]
                    return true
                }
                entries[key]?.texts.insert(sql)
                return false
            }
            // A connection not seen yet (or a new one at a closed one's address): forget the
            // closed ones.
            entries = entries.filter { $0.value.connection != nil && $0.key != key }
            entries[key] = Entry(connection: db, texts: [sql])
            return false
        }
        // Also gives back SQLite's spare page-cache memory; rare, and the caches refill as used.
        if full { db.releaseMemory() }
        return try db.cachedStatement(sql: sql)
    }
}
