import Foundation
import GRDB

extension InboxItem {
    /// Decodes an `inbox_queue` row by column name, without `Codable` and its key strategy: the
    /// inbox worker reads every item it claims, payload included. As
    /// `Codable` decoding does, an optional column missing from the row reads as `nil` and a
    /// missing required one throws.
    /// - Throws: `RowDecodingError` when a required column is missing or holds a wrong value.
    public init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        activityId = try row.decode(forColumn: "activity_id")
        actorUri = try row.decode(forColumn: "actor_uri")
        recipientAccountId = try row.decode(forColumn: "recipient_account_id")
        payload = try row.decode(forColumn: "payload")
        attempts = try row.decode(forColumn: "attempts")
        unfinishedAttempts = try row.decode(forColumn: "unfinished_attempts")
        parkedAt = try row.decode(forColumn: "parked_at")
        availableAt = try row.decode(forColumn: "available_at")
        lastError = try row.decode(forColumn: "last_error")
        receivedAt = try row.decode(forColumn: "received_at")
    }
}

extension InboxItem {
    /// The `inbox_queue` row (hand-written: see Shared/Record.swift).
    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["activity_id"] = activityId
        container["actor_uri"] = actorUri
        container["recipient_account_id"] = recipientAccountId
        container["payload"] = payload
        container["attempts"] = attempts
        container["unfinished_attempts"] = unfinishedAttempts
        container["parked_at"] = parkedAt
        container["available_at"] = availableAt
        container["last_error"] = lastError
        container["received_at"] = receivedAt
    }
}
