import Foundation
import GRDB

/// A list of followed accounts made by `accountId` (Mastodon's `List`).
public struct UserList: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "lists"
    /// Snowflake id.
    public var id: Int64
    /// The owner.
    public var accountId: Int64
    /// Title.
    public var title: String
    /// Which replies the list timeline shows: `followed`, `list` or `none`.
    public var repliesPolicy: String
    /// Whether members' posts leave the owner's home timeline.
    public var exclusive: Bool
    /// When it was made.
    public var createdAt: Date

    /// Creates a list row.
    public init(id: Int64 = Snowflake.next(), accountId: Int64, title: String, repliesPolicy: String = "list", exclusive: Bool = false,
                createdAt: Date = Date()) {
        self.id = id
        self.accountId = accountId
        self.title = title
        self.repliesPolicy = repliesPolicy
        self.exclusive = exclusive
        self.createdAt = createdAt
    }
}
