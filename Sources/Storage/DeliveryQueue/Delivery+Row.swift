import Foundation
import GRDB

extension Delivery {
    /// Decodes a `delivery_queue` row by column name, without `Codable` and its key strategy:
    /// the delivery worker reads every due row, payload included, so this is on the path of
    /// every delivery. As `Codable` decoding does, an optional column
    /// missing from the row reads as `nil` and a missing required one throws.
    /// - Throws: `RowDecodingError` when a required column is missing or holds a wrong value.
    public init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        activityUri = try row.decode(forColumn: "activity_uri")
        accountId = try row.decode(forColumn: "account_id")
        inboxUrl = try row.decode(forColumn: "inbox_url")
        domain = try row.decode(forColumn: "domain")
        payload = try row.decode(forColumn: "payload")
        attempts = try row.decode(forColumn: "attempts")
        nextAttemptAt = try row.decode(forColumn: "next_attempt_at")
        lastStatus = try row.decode(forColumn: "last_status")
        lastError = try row.decode(forColumn: "last_error")
        createdAt = try row.decode(forColumn: "created_at")
    }
}

extension Delivery {
    /// The `delivery_queue` row (hand-written: see Shared/Record.swift).
    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["activity_uri"] = activityUri
        container["account_id"] = accountId
        container["inbox_url"] = inboxUrl
        container["domain"] = domain
        container["payload"] = payload
        container["attempts"] = attempts
        container["next_attempt_at"] = nextAttemptAt
        container["last_status"] = lastStatus
        container["last_error"] = lastError
        container["created_at"] = createdAt
    }
}

extension DeliveryDomain {
    /// The `delivery_domains` row (hand-written: see Shared/Record.swift).
    public func encode(to container: inout PersistenceContainer) {
        container["domain"] = domain
        container["failing_since"] = failingSince
        container["last_failure_at"] = lastFailureAt
        container["last_success_at"] = lastSuccessAt
        container["unavailable"] = unavailable
    }
}
