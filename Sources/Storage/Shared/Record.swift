import GRDB

/// A row type stored with snake_case columns. Each table has exactly one such struct.
public protocol Record: Codable, Sendable, FetchableRecord, PersistableRecord {}

extension Record {
    /// Columns are snake_case in SQL, properties camelCase in Swift.
    public static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { .convertFromSnakeCase }
    /// Columns are snake_case in SQL, properties camelCase in Swift.
    public static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .convertToSnakeCase }
}

// Row encoders written by hand: the records written on the federation paths implement
// `encode(to:)` beside their row decoder, as `Codable` encoding converted every property name
// to snake_case at every write (docs/benchmarks-history.md). Each writes every stored property
// under its column name, as `Codable` did (`RecordEncodingTests` compares them): a property
// added to one of these records goes into its encoder too.
