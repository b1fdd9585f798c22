import GRDB

extension Media {
    /// The attachments of `postId`, in their order within the post.
    public func attachments(of postId: Int64) throws -> [MediaAttachment] {
        try MediaAttachment.filter(Column("post_id") == postId).order(Column("position")).fetchAll(db)
    }

    /// Stores a new attachment.
    public func insert(_ media: MediaAttachment) throws { try media.insert(db) }

    /// Stores an attachment: updates its row when it exists (an upload being attached),
    /// inserts it otherwise.
    public func save(_ media: MediaAttachment) throws { try media.save(db) }

    /// Removes every attachment of `postId` (before an edit stores the new ones).
    public func deleteAll(ofPost postId: Int64) throws {
        try MediaAttachment.filter(Column("post_id") == postId).deleteAll(db)
    }
}
