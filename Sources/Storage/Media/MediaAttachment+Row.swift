import Foundation
import GRDB

extension MediaAttachment {
    /// Decodes a `media_attachments` row by column name, without `Codable` and its key strategy
    /// (every page of statuses decodes its photos). As `Codable` decoding does, an optional
    /// column missing from the row reads as `nil` and a missing required one throws.
    /// - Throws: `RowDecodingError` when a required column is missing or holds a wrong value.
    public init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        accountId = try row.decode(forColumn: "account_id")
        postId = try row.decode(forColumn: "post_id")
        position = try row.decode(forColumn: "position")
        type = try row.decode(forColumn: "type")
        contentType = try row.decode(forColumn: "content_type")
        filePath = try row.decode(forColumn: "file_path")
        thumbnailPath = try row.decode(forColumn: "thumbnail_path")
        remoteUrl = try row.decode(forColumn: "remote_url")
        previewRemoteUrl = try row.decode(forColumn: "preview_remote_url")
        thumbnailWidth = try row.decode(forColumn: "thumbnail_width")
        thumbnailHeight = try row.decode(forColumn: "thumbnail_height")
        description = try row.decode(forColumn: "description")
        focusX = try row.decode(forColumn: "focus_x")
        focusY = try row.decode(forColumn: "focus_y")
        width = try row.decode(forColumn: "width")
        height = try row.decode(forColumn: "height")
        blurhash = try row.decode(forColumn: "blurhash")
        fileSize = try row.decode(forColumn: "file_size")
        createdAt = try row.decode(forColumn: "created_at")
    }
}

extension MediaAttachment {
    /// The `media_attachments` row (hand-written: see Shared/Record.swift).
    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id
        container["account_id"] = accountId
        container["post_id"] = postId
        container["position"] = position
        container["type"] = type
        container["content_type"] = contentType
        container["file_path"] = filePath
        container["thumbnail_path"] = thumbnailPath
        container["remote_url"] = remoteUrl
        container["preview_remote_url"] = previewRemoteUrl
        container["thumbnail_width"] = thumbnailWidth
        container["thumbnail_height"] = thumbnailHeight
        container["description"] = description
        container["focus_x"] = focusX
        container["focus_y"] = focusY
        container["width"] = width
        container["height"] = height
        container["blurhash"] = blurhash
        container["file_size"] = fileSize
        container["created_at"] = createdAt
    }
}
