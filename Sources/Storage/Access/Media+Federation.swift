import GRDB

extension Media {
    /// Stores an attachment: updates its row when it exists (an upload being attached),
    /// inserts it otherwise.
    public func save(_ media: MediaAttachment) throws { try media.save(db) }

    /// Removes every attachment of `postId` (before an edit stores the new ones).
    public func deleteAll(ofPost postId: Int64) throws {
        try MediaAttachment.filter(Column("post_id") == postId).deleteAll(db)
    }
}
