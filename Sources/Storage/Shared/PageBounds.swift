/// The bounds of one page of a Mastodon list (`max_id`, `since_id`, `min_id`, `limit`), as
/// the client API reads them; the queries turn them into a range over the column they page by.
public struct PageBounds: Sendable, Equatable {
    /// Items strictly older than this id.
    public var maxId: Int64?
    /// Items strictly newer than this id (newest first).
    public var sinceId: Int64?
    /// Items strictly newer than this id, the ones just above it (oldest of the newer first).
    public var minId: Int64?
    /// Page size.
    public var limit: Int

    /// A page with these bounds.
    public init(maxId: Int64? = nil, sinceId: Int64? = nil, minId: Int64? = nil, limit: Int = 20) {
        self.maxId = maxId
        self.sinceId = sinceId
        self.minId = minId
        self.limit = limit
    }

    /// SQL condition on `column` with its arguments, for a query ordered by `order(column)`.
    func condition(_ column: String) -> (sql: String, arguments: [Int64]) {
        var parts: [String] = []
        var arguments: [Int64] = []
        if let maxId { parts.append("\(column) < ?"); arguments.append(maxId) }
        if let minId { parts.append("\(column) > ?"); arguments.append(minId) } else if let sinceId {
            parts.append("\(column) > ?"); arguments.append(sinceId)
        }
        return (parts.isEmpty ? "1" : parts.joined(separator: " AND "), arguments)
    }

    /// `ORDER BY` for `column`: ascending for `min_id` (the rows just above it), else descending.
    func order(_ column: String) -> String { minId != nil ? "\(column) ASC" : "\(column) DESC" }

    /// Puts rows fetched with `order` back newest first.
    func newestFirst<T>(_ rows: [T]) -> [T] { minId != nil ? rows.reversed() : rows }
}

/// One item of a page ordered by the id of another row (the like, follow or block that lists
/// it), with that id, which the `Link` header of the page is made of.
public struct PageItem<Item: Sendable>: Sendable {
    /// The id the page is ordered and bounded by.
    public var cursor: Int64
    /// The listed item.
    public var item: Item

    /// Pairs an item with its cursor.
    public init(cursor: Int64, item: Item) {
        self.cursor = cursor
        self.item = item
    }
}
