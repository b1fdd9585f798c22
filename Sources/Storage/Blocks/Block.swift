import Foundation
import GRDB

/// `accountId` blocks `targetAccountId`.
public struct Block: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "blocks"
    /// Snowflake id.
    public var id: Int64
    /// The blocker.
    public var accountId: Int64
    /// The blocked account.
    public var targetAccountId: Int64
    /// The Block activity's id.
    public var uri: String?
    /// When it was made.
    public var createdAt: Date

    /// Creates a block row.
    public init(id: Int64 = Snowflake.next(), accountId: Int64, targetAccountId: Int64, uri: String?, createdAt: Date = Date()) {
        self.id = id
        self.accountId = accountId
        self.targetAccountId = targetAccountId
        self.uri = uri
        self.createdAt = createdAt
    }
}
