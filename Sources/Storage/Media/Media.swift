import Foundation
import GRDB

// Media attachments: the table `media_attachments`.

extension Transaction {
    /// Media attachments.
    public var media: Media { Media(db: session) }
}

/// Media attachments.
public struct Media { let db: SQLSession }

extension Media {
    /// Stores an attachment: updates its row when it exists (an upload being attached),
    /// inserts it otherwise.
    public func save(_ media: MediaAttachment) throws { try media.save(db) }

    /// Removes every attachment of `postId` (before an edit stores the new ones).
    public func deleteAll(ofPost postId: Int64) throws {
        try MediaAttachment.filter(Column("post_id") == postId).deleteAll(db)
    }

    /// The attachment with this id.
    public func find(id: Int64) throws -> MediaAttachment? { try MediaAttachment.fetchOne(db, key: id) }

    /// Deletes the attachment `id` if no post has it (its files go with the janitor's next sweep).
    /// - Returns: Whether a row was deleted.
    @discardableResult
    public func deleteUnattached(id: Int64) throws -> Bool {
        try MediaAttachment.filter(Column("id") == id && Column("post_id") == nil).deleteAll(db) > 0
    }

    /// Stores a new attachment.
    public func insert(_ media: MediaAttachment) throws { try media.insert(db) }

    /// Stores every column of an existing attachment.
    public func update(_ media: MediaAttachment) throws { try media.update(db) }

    /// The photos of `postId`, in order (cached statement: asked for every rendered status).
    public func attachments(of postId: Int64) throws -> [MediaAttachment] {
        try MediaAttachment.fetchAll(db.cachedStatement(sql: "SELECT * FROM media_attachments WHERE post_id = ? ORDER BY position"),
                                     arguments: [postId])
    }

    /// The photos of each of `ids`, in order, in one query; posts without any are left out.
    public func attachments(ofPosts ids: some Collection<Int64>) throws -> [Int64: [MediaAttachment]] {
        try BatchQuery.grouped(db, ids, sql: """
            SELECT m.post_id AS batch_post_id, m.* FROM \(BatchQuery.idTable) CROSS JOIN media_attachments m
            WHERE m.post_id = \(BatchQuery.idValue) ORDER BY m.post_id, m.position, m.id
            """, decode: { try MediaAttachment(row: $0) })
    }

    /// How many attachments `postId` has.
    public func count(of postId: Int64) throws -> Int {
        try MediaAttachment.filter(Column("post_id") == postId).fetchCount(db)
    }

    /// Those of `ids` that are `accountId`'s own uploads and either unattached or (when
    /// editing) attached to `postId`: the ones a new or edited post may use.
    public func usableIds(_ ids: [Int64], of accountId: Int64, editing postId: Int64?) throws -> Set<Int64> {
        try Int64.fetchSet(db, sql: """
            SELECT id FROM media_attachments WHERE account_id = ? AND (post_id IS NULL OR post_id IS ?) AND id IN (\(BatchQuery.ids))
            """, arguments: [accountId, postId, BatchQuery.json(ids)])
    }

    /// The attachments with these ids that `accountId` uploaded, in no particular order.
    public func find(ids: [Int64], ownedBy accountId: Int64) throws -> [MediaAttachment] {
        try MediaAttachment.filter(keys: ids).filter(Column("account_id") == accountId).fetchAll(db)
    }

    /// Makes `mediaIds` (those `accountId` uploaded) the attachments of `postId`, in this order;
    /// attachments of the post not listed are detached.
    public func setAttachments(of postId: Int64, to mediaIds: [Int64], ownedBy accountId: Int64) throws {
        try db.execute(cached: "UPDATE media_attachments SET post_id = NULL WHERE post_id = ?", arguments: [postId])
        for (position, mediaId) in mediaIds.enumerated() {
            try db.execute(cached: "UPDATE media_attachments SET post_id = ?, position = ? WHERE id = ? AND account_id = ?",
                           arguments: [postId, position, mediaId, accountId])
        }
    }

    /// Deletes uploads never attached to a post (local ones: no remote URL) created before
    /// `date`, but for those a scheduled post will attach.
    public func deleteUnattached(createdBefore date: Date) throws {
        try db.execute(cached: """
            DELETE FROM media_attachments WHERE post_id IS NULL AND remote_url IS NULL AND created_at < ?
              AND NOT EXISTS (SELECT 1 FROM scheduled_post_media s WHERE s.media_id = media_attachments.id)
            """, arguments: [date])
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
