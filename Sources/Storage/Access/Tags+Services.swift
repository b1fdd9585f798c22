import GRDB

extension Tags {
    /// Hashtags whose name starts with `prefix` (wildcards in it match literally): the exact
    /// name first, then shorter names first, then by name.
    public func search(prefix: String, limit: Int, offset: Int) throws -> [Hashtag] {
        try Hashtag.fetchAll(db, sql: """
            SELECT * FROM hashtags WHERE name LIKE ? ESCAPE '\\' ORDER BY (name = ?) DESC, length(name), name LIMIT ? OFFSET ?
            """, arguments: [Self.likePattern(prefix: prefix), prefix, limit, offset])
    }

    /// A `LIKE ... ESCAPE '\'` pattern matching values that start with `prefix` (wildcards escaped).
    static func likePattern(prefix: String) -> String {
        prefix.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_") + "%"
    }
}
