import GRDB

/// Queries about many rows at once (`WHERE post_id IN (...)`), so rendering a page costs a
/// fixed number of queries whatever its length.
enum BatchQuery {
    /// At most this many ids go into one `IN (...)` list (SQLite's limit on bound variables is
    /// far higher; long lists only make statements slow to prepare).
    static let chunkSize = 500

    /// Runs `fetch` for the distinct `ids` in chunks of at most `chunkSize`, passing the
    /// `?, ?, ...` placeholders and the ids to bind to them, and joins the results.
    static func chunked<T>(_ ids: some Collection<Int64>,
                           _ fetch: (_ placeholders: String, _ arguments: StatementArguments) throws -> [T]) throws -> [T] {
        let distinct = Array(Set(ids)).sorted()
        var results: [T] = []
        var start = 0
        while start < distinct.count {
            let chunk = Array(distinct[start..<min(start + chunkSize, distinct.count)])
            results += try fetch(chunk.map { _ in "?" }.joined(separator: ","), StatementArguments(chunk))
            start += chunkSize
        }
        return results
    }

    /// Rows whose first column is an id, grouped by it in query order; the rest of each row
    /// (from the second column) decoded by `decode`.
    static func grouped<T>(_ db: Database, _ ids: some Collection<Int64>, sql: (String) -> String,
                           decode: (Row) throws -> T) throws -> [Int64: [T]] {
        let pairs: [(Int64, T)] = try chunked(ids) { placeholders, arguments in
            try Row.fetchAll(db, sql: sql(placeholders), arguments: arguments).map { row in (row[0] as Int64, try decode(row)) }
        }
        return Dictionary(grouping: pairs, by: \.0).mapValues { $0.map(\.1) }
    }

    /// The ids among `ids` that the query (given the placeholders) returns in its first column.
    static func idSet(_ db: Database, _ ids: some Collection<Int64>, sql: (String) -> String,
                      arguments prefix: StatementArguments = []) throws -> Set<Int64> {
        Set(try chunked(ids) { placeholders, arguments in
            try Int64.fetchAll(db, sql: sql(placeholders), arguments: prefix + arguments)
        })
    }
}
