import Foundation
import GRDB

extension PreviewCard {
    /// Decodes a `preview_cards` row by column name, without `Codable` and its key strategy
    /// (every page of statuses decodes its cards). As `Codable` decoding does, an optional
    /// column missing from the row reads as `nil` and a missing required one throws.
    /// - Throws: `RowDecodingError` when a required column is missing or holds a wrong value.
    public init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        url = try row.decode(forColumn: "url")
        title = try row.decode(forColumn: "title")
        description = try row.decode(forColumn: "description")
        type = try row.decode(forColumn: "type")
        authorName = try row.decode(forColumn: "author_name")
        providerName = try row.decode(forColumn: "provider_name")
        imageUrl = try row.decode(forColumn: "image_url")
        width = try row.decode(forColumn: "width")
        height = try row.decode(forColumn: "height")
        createdAt = try row.decode(forColumn: "created_at")
    }
}
