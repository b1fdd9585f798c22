import Foundation
import GRDB

extension Media {
    /// The attachments with these ids that `accountId` uploaded, in no particular order.
    public func find(ids: [Int64], ownedBy accountId: Int64) throws -> [MediaAttachment] {
        try MediaAttachment.filter(keys: ids).filter(Column("account_id") == accountId).fetchAll(db)
    }

    /// Makes `mediaIds` (those `accountId` uploaded) the attachments of `postId`, in this order;
    /// attachments of the post not listed are detached.
    public func setAttachments(of postId: Int64, to mediaIds: [Int64], ownedBy accountId: Int64) throws {
        try db.execute(sql: "UPDATE media_attachments SET post_id = NULL WHERE post_id = ?", arguments: [postId])
        for (position, mediaId) in mediaIds.enumerated() {
            try db.execute(sql: "UPDATE media_attachments SET post_id = ?, position = ? WHERE id = ? AND account_id = ?",
                           arguments: [postId, position, mediaId, accountId])
        }
    }

    /// Deletes uploads never attached to a post (local ones: no remote URL) created before `date`.
    public func deleteUnattached(createdBefore date: Date) throws {
        try db.execute(sql: "DELETE FROM media_attachments WHERE post_id IS NULL AND remote_url IS NULL AND created_at < ?",
                       arguments: [date])
    }

    /// Every media path a row refers to: attachments, thumbnails, local avatars and covers.
    public func referencedPaths() throws -> Set<String> {
        let paths = try String.fetchAll(db, sql: """
            SELECT file_path FROM media_attachments WHERE file_path IS NOT NULL
            UNION SELECT thumbnail_path FROM media_attachments WHERE thumbnail_path IS NOT NULL
            UNION SELECT avatar_url FROM accounts WHERE domain IS NULL AND avatar_url IS NOT NULL
            UNION SELECT header_url FROM accounts WHERE domain IS NULL AND header_url IS NOT NULL
            """)
        return Set(paths)
    }
}
