import Foundation
import GRDB

/// One stored outbound activity as the outbox collection lists it.
public struct OutboxEntry: Sendable, Equatable {
    /// The row's id (the page cursor).
    public var id: Int64
    /// ActivityStreams type (`Create` or `Announce`).
    public var type: String
    /// The activity JSON as delivered.
    public var payload: Data
    /// The post concerned, if any.
    public var postId: Int64?
}

extension Deliveries {
    /// How many of `accountId`'s Create and Announce activities of public and unlisted posts
    /// its outbox collection holds.
    public func outboxCount(of accountId: Int64) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) \(Self.outbox)", arguments: [accountId]) ?? 0
    }

    /// One page of that outbox, newest first: at most `limit` entries with ids below `maxId`.
    public func outboxPage(of accountId: Int64, before maxId: Int64, limit: Int) throws -> [OutboxEntry] {
        let rows = try Row.fetchAll(db, sql: "SELECT o.id, o.type, o.payload, o.post_id \(Self.outbox) AND o.id < ? ORDER BY o.id DESC LIMIT ?",
                                    arguments: [accountId, maxId, limit])
        return rows.map { OutboxEntry(id: $0["id"], type: $0["type"], payload: $0["payload"], postId: $0["post_id"]) }
    }

    private static let outbox = """
        FROM outbox_activities o JOIN posts p ON p.id = o.post_id
        WHERE o.account_id = ? AND o.type IN ('Create', 'Announce') AND p.visibility IN ('public', 'unlisted')
        """
}
