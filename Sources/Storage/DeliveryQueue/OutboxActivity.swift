import Foundation
import GRDB

/// An activity a local account sent, kept for the outbox collection and for deliveries.
public struct OutboxActivity: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "outbox_activities"
    /// Snowflake id.
    public var id: Int64
    /// The activity id.
    public var uri: String
    /// The sender.
    public var accountId: Int64
    /// ActivityStreams type (Create, Like, Follow, ...).
    public var type: String
    /// The post concerned, if any (removed with it).
    public var postId: Int64?
    /// The activity JSON as delivered.
    public var payload: Data
    /// When it was made.
    public var createdAt: Date

    /// Creates an outbox row.
    public init(id: Int64 = Snowflake.next(), uri: String, accountId: Int64, type: String, postId: Int64?, payload: Data, createdAt: Date = Date()) {
        self.id = id
        self.uri = uri
        self.accountId = accountId
        self.type = type
        self.postId = postId
        self.payload = payload
        self.createdAt = createdAt
    }
}

extension OutboxActivity {
    /// The `outbox_activities` row (hand-written: see Shared/Record.swift).
    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["uri"] = uri
        container["account_id"] = accountId
        container["type"] = type
        container["post_id"] = postId
        container["payload"] = payload
        container["created_at"] = createdAt
    }
}
