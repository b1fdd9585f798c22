import Foundation
import GRDB

/// Queries about many rows at once (the posts of a page, their authors), so rendering a page
/// costs a fixed number of queries whatever its length.
///
/// The ids go into one statement argument, a JSON array read by `json_each`, so the SQL text
/// never depends on how many there are: each statement is prepared once per connection and
/// then taken from GRDB's statement cache (preparing `IN (?, ?, …)` lists of every length
/// afresh was a seventh of the home timeline's CPU). There is no limit on
/// the number of ids.
enum BatchQuery {
    /// The ids of a batch as an SQL subquery, for `… IN (\(BatchQuery.ids))`; its one
    /// parameter is `json(ids)`, where the subquery stands in the text (the helpers below bind
    /// it after their `arguments`). (The cast is a no-op on SQLite; on PostgreSQL the elements
    /// of a JSON array are read as text.)
    static let ids = "SELECT CAST(value AS INTEGER) FROM json_each(?)"

    /// `ids` with the numbered parameter `?n`, for a statement that names its parameters by
    /// number (the same list used more than once). The helpers bind the ids after their
    /// `arguments`, so `n` is the last number.
    static func ids(_ n: Int) -> String { "SELECT CAST(value AS INTEGER) FROM json_each(?\(n))" }

    /// The ids of a batch as a table to join the rows to, for
    /// `FROM \(BatchQuery.idTable) CROSS JOIN t … WHERE t.id = \(BatchQuery.idValue)`; its one
    /// parameter is `json(ids)`. It stands in `FROM`, before the statement's other `?`: with the
    /// helpers, which bind the ids after their `arguments`, pass no other arguments or number
    /// them (`idTable(n)`). SQLite looks each id up in `t`'s index, where
    /// `IN (\(ids))` first copies the list into a temporary B-tree with a pager of its own,
    /// allocated, filled and freed at every statement (a few percent of a list page's CPU, ten
    /// such statements a page). `CROSS JOIN` keeps the ids the
    /// outer loop on SQLite; `json` lists each id once, so each row comes once. Select the
    /// joined tables' columns by alias (`t.*`): `json_each` has columns of its own, `id` among them.
    static let idTable = "json_each(?)"

    /// `idTable` with the numbered parameter `?n`, for a statement that names its parameters by number.
    static func idTable(_ n: Int) -> String { "json_each(?\(n))" }

    /// The current id of `idTable`, to compare with the joined table's column.
    static let idValue = "CAST(json_each.value AS INTEGER)"

    /// The ids as a JSON array (`[1,2,3]`), each once, in their first order: the argument of
    /// `ids` and `idTable`.
    static func json(_ ids: some Collection<Int64>) -> String {
        var text = "["
        text.reserveCapacity(ids.count * 20 + 2)
        var seen = Set<Int64>(minimumCapacity: ids.count)
        for id in ids where seen.insert(id).inserted {
            if seen.count > 1 { text += "," }
            text += String(id)
        }
        return text + "]"
    }

    /// Strings of a batch as an SQL subquery, for `… IN (\(BatchQuery.strings))`; its one
    /// parameter is `json(strings)`. (`ids` casts to integers: a text column compared with it
    /// never matches.)
    static let strings = "SELECT value FROM json_each(?)"

    /// Strings as a JSON array, the argument of `strings` (encoding an array of strings cannot fail).
    static func json(_ values: [String]) -> String {
        (try? JSONEncoder().encode(values)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }

    /// Runs the cached statement `sql` with the arguments `prefix` followed by the JSON of
    /// `ids`, decoding each row while the statement is on it. No query runs for no ids.
    /// - Parameters:
    ///   - sql: Constant SQL whose ids parameter is bound last: the `ids` subquery after every
    ///     other `?`, or numbered parameters (`ids(n)`, `idTable(n)`) with the ids last.
    ///   - decode: Reads one row (only valid during the call).
    /// - Returns: The decoded rows, in the order of the query.
    static func rows<T>(_ db: SQLSession, _ ids: some Collection<Int64>, sql: String, arguments prefix: StatementArguments = [],
                        decode: (Row) throws -> T) throws -> [T] {
        var results: [T] = []
        try forEachRow(db, ids, sql: sql, arguments: prefix) { results.append(try decode($0)) }
        return results
    }

    /// Runs `body` on each row of the cached statement `sql` (arguments as in `rows`).
    private static func forEachRow(_ db: SQLSession, _ ids: some Collection<Int64>, sql: String, arguments prefix: StatementArguments = [],
                                   _ body: (Row) throws -> Void) throws {
        guard !ids.isEmpty else { return }
        let cursor = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: prefix + [json(ids)])
        while let row = try cursor.next() { try body(row) }
    }

    /// Records of the cached statement `sql`, whose one parameter is the `ids` subquery.
    /// No query runs for no ids.
    static func records<R: FetchableRecord>(_ type: R.Type, _ db: SQLSession, _ ids: some Collection<Int64>, sql: String) throws -> [R] {
        guard !ids.isEmpty else { return [] }
        return try R.fetchAll(db.cachedStatement(sql: sql), arguments: [json(ids)])
    }

    /// Rows whose first column is an id, grouped by it in query order; the rest of each row
    /// (from the second column) decoded by `decode`.
    static func grouped<T>(_ db: SQLSession, _ ids: some Collection<Int64>, sql: String,
                           decode: (Row) throws -> T) throws -> [Int64: [T]] {
        // A plain loop: key paths over a generic tuple are instantiated at every call
        // (`swift_getKeyPath`, a twentieth of a timeline page's CPU).
        var groups: [Int64: [T]] = [:]
        try forEachRow(db, ids, sql: sql) { row in groups[row[0] as Int64, default: []].append(try decode(row)) }
        return groups
    }

    /// The ids among `ids` that the query returns in its first column.
    static func idSet(_ db: SQLSession, _ ids: some Collection<Int64>, sql: String,
                      arguments prefix: StatementArguments = []) throws -> Set<Int64> {
        Set(try rows(db, ids, sql: sql, arguments: prefix) { $0[0] as Int64 })
    }
}
