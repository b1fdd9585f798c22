import Foundation
import Storage

/// Photo uploads not yet attached to a post: processed at once, stored, and described.
package struct MediaService: Sendable {
    /// Longest alt text (Mastodon's limit).
    package static let maxDescription = 1500

    package let node: Node

    /// Acts for `node`.
    package init(node: Node) {
        self.node = node
    }

    /// Stores an uploaded image (type from its bytes; JPEG, PNG, GIF or WebP up to 16 MiB) as an
    /// unattached photo of `owner`: what the client API's upload and the web app's new-post
    /// form both do.
    /// - Throws: `NodeError.validation` (422) for an unsupported or broken image or alt text
    ///   over `maxDescription` characters, with nothing stored.
    package func upload(_ data: Data, description: String, focus: FocalPoint?, by owner: Account) async throws(NodeError) -> MediaAttachment {
        try Self.check(description)
        let stored = try await node.uploadStore.store(data, focus: focus)
        var media = MediaAttachment(accountId: owner.id)
        media.type = "image"
        media.contentType = stored.contentType
        media.filePath = stored.path
        media.width = stored.width
        media.height = stored.height
        media.fileSize = stored.fileSize
        media.thumbnailPath = stored.thumbnailPath
        media.thumbnailWidth = stored.thumbnailWidth
        media.thumbnailHeight = stored.thumbnailHeight
        media.blurhash = stored.blurhash
        media.description = description
        media.focusX = focus?.x
        media.focusY = focus?.y
        let row = media
        try await node.write("media") { db in try db.media.insert(row) }
        return row
    }

    /// Changes the alt text or focal point of one of `owner`'s uploads not yet attached to a
    /// post (attached ones change through an edit of the post, which tells other servers).
    /// - Throws: `NodeError.notFound` for anyone else's upload or an attached one;
    ///   `.validation` for alt text over `maxDescription` characters.
    package func update(_ id: Int64, description: String?, focus: FocalPoint?, by owner: Account) async throws(NodeError) -> MediaAttachment {
        if let description { try Self.check(description) }
        return try await node.write("media") { db -> MediaAttachment in
            var media = try Self.own(id, of: owner, in: db)
            guard media.postId == nil else { throw NodeError.notFound("Record not found") }
            if let description { media.description = description }
            if let focus { (media.focusX, media.focusY) = (focus.x, focus.y) }
            try db.media.update(media)
            return media
        }
    }

    /// Deletes one of `owner`'s uploads that no post has (Mastodon 4.4's `DELETE /api/v1/media/:id`);
    /// its files go with the media janitor's next sweep.
    /// - Throws: `NodeError.notFound` for anyone else's upload; `.validation` for one a post has.
    package func delete(_ id: Int64, by owner: Account) async throws(NodeError) {
        try await node.write("media") { db in
            let media = try Self.own(id, of: owner, in: db)
            guard media.postId == nil, try db.media.deleteUnattached(id: media.id) else {
                throw NodeError.validation("Media attachment is currently used by a status")
            }
        }
    }

    /// One of `owner`'s uploads, attached or not.
    /// - Throws: `NodeError.notFound` for anyone else's.
    package static func own(_ id: Int64, of owner: Account, in db: Transaction) throws -> MediaAttachment {
        guard let media = try db.media.find(id: id), media.accountId == owner.id else {
            throw NodeError.notFound("Record not found")
        }
        return media
    }

    /// Refuses alt text over `maxDescription` characters.
    package static func check(_ description: String) throws(NodeError) {
        guard description.count <= maxDescription else {
            throw .validation("Validation failed: Description is too long (maximum is \(maxDescription) characters)")
        }
    }
}
