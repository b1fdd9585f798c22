import Foundation
import GRDB

extension Post {
    /// Decodes a `posts` row by column name, without `Codable` and its key strategy (a page
    /// of statuses decodes dozens of rows). As `Codable` decoding does,
    /// an optional column missing from the row reads as `nil` and a missing required one throws.
    /// - Throws: `RowDecodingError` when a required column is missing or holds a wrong value.
    public init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        uri = try row.decode(forColumn: "uri")
        url = try row.decode(forColumn: "url")
        accountId = try row.decode(forColumn: "account_id")
        local = try row.decode(forColumn: "local")
        inReplyToId = try row.decode(forColumn: "in_reply_to_id")
        inReplyToUri = try row.decode(forColumn: "in_reply_to_uri")
        inReplyToAccountId = try row.decode(forColumn: "in_reply_to_account_id")
        reblogOfId = try row.decode(forColumn: "reblog_of_id")
        content = try row.decode(forColumn: "content")
        text = try row.decode(forColumn: "text")
        spoilerText = try row.decode(forColumn: "spoiler_text")
        sensitive = try row.decode(forColumn: "sensitive")
        visibility = try row.decode(forColumn: "visibility")
        language = try row.decode(forColumn: "language")
        createdAt = try row.decode(forColumn: "created_at")
        editedAt = try row.decode(forColumn: "edited_at")
        updatedAt = try row.decode(forColumn: "updated_at")
    }
}

extension Post {
    /// The `posts` row (hand-written: see Shared/Record.swift).
    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["uri"] = uri
        container["url"] = url
        container["account_id"] = accountId
        container["local"] = local
        container["in_reply_to_id"] = inReplyToId
        container["in_reply_to_uri"] = inReplyToUri
        container["in_reply_to_account_id"] = inReplyToAccountId
        container["reblog_of_id"] = reblogOfId
        container["content"] = content
        container["text"] = text
        container["spoiler_text"] = spoilerText
        container["sensitive"] = sensitive
        container["visibility"] = visibility
        container["language"] = language
        container["created_at"] = createdAt
        container["edited_at"] = editedAt
        container["updated_at"] = updatedAt
    }
}
