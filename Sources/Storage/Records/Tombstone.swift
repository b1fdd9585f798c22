import Foundation
import GRDB

/// The id of a deleted local object, so fetching it answers 410 Gone instead of 404.
public struct Tombstone: Record, Equatable {
    /// Table name.
    public static let databaseTableName = "tombstones"
    /// The deleted object's id.
    public var uri: String
    /// Its former owner.
    public var accountId: Int64?
    /// When it was deleted.
    public var deletedAt: Date

    /// Creates a tombstone row.
    public init(uri: String, accountId: Int64?, deletedAt: Date = Date()) {
        self.uri = uri
        self.accountId = accountId
        self.deletedAt = deletedAt
    }
}
