import Foundation
import GRDB

extension AccountNotification {
    /// Decodes a `notifications` row by column name, without `Codable` and its key strategy
    /// (a notifications page decodes one per item). As `Codable`
    /// decoding does, an optional column missing from the row reads as `nil` and a missing
    /// required one throws.
    /// - Throws: `RowDecodingError` when a required column is missing or holds a wrong value.
    public init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        accountId = try row.decode(forColumn: "account_id")
        fromAccountId = try row.decode(forColumn: "from_account_id")
        type = try row.decode(forColumn: "type")
        postId = try row.decode(forColumn: "post_id")
        dedupeKey = try row.decode(forColumn: "dedupe_key")
        createdAt = try row.decode(forColumn: "created_at")
    }
}

extension AccountNotification {
    /// The `notifications` row (hand-written: see Shared/Record.swift).
    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["account_id"] = accountId
        container["from_account_id"] = fromAccountId
        container["type"] = type
        container["post_id"] = postId
        container["dedupe_key"] = dedupeKey
        container["created_at"] = createdAt
    }
}
