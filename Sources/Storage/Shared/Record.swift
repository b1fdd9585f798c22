import GRDB

/// A row type stored with snake_case columns. Each table has exactly one such struct.
public protocol Record: Codable, Sendable, FetchableRecord, PersistableRecord {}

extension Record {
    /// Columns are snake_case in SQL, properties camelCase in Swift.
    public static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { .convertFromSnakeCase }
    /// Columns are snake_case in SQL, properties camelCase in Swift.
    public static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .convertToSnakeCase }
}
