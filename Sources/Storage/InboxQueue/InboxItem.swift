import Foundation
import GRDB

/// An accepted inbound activity waiting for (or retrying) processing.
public struct InboxItem: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "inbox_queue"
    /// Snowflake id (arrival order).
    public var id: Int64
    /// The activity's id, when it had one.
    public var activityId: String?
    /// The verified signer's actor id.
    public var actorUri: String
    /// The personal inbox it arrived at; `nil` for the shared inbox.
    public var recipientAccountId: Int64?
    /// The JSON body exactly as received.
    public var payload: Data
    /// Processing attempts that ended in a transient failure so far (they set the backoff).
    public var attempts: Int = 0
    /// Attempts started but never finished: raised durably before the handler runs, cleared
    /// when an attempt ends. Only a process that died mid-attempt leaves it above zero.
    public var unfinishedAttempts: Int = 0
    /// Set when the item was taken out of processing (it kept killing the node, or kept
    /// failing); it stays for the admin to inspect (`fednode inbox parked`).
    public var parkedAt: Date?
    /// Not processed before this time (backoff after a failure).
    public var availableAt: Date
    /// Why the last attempt failed.
    public var lastError: String?
    /// When it was accepted.
    public var receivedAt: Date

    /// Creates a queue item available now.
    public init(id: Int64 = Snowflake.next(), activityId: String?, actorUri: String, recipientAccountId: Int64?, payload: Data, receivedAt: Date = Date()) {
        self.id = id
        self.activityId = activityId
        self.actorUri = actorUri
        self.recipientAccountId = recipientAccountId
        self.payload = payload
        self.availableAt = receivedAt
        self.receivedAt = receivedAt
    }
}
