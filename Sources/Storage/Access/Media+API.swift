import GRDB

extension Media {
    /// The attachment with this id.
    public func find(id: Int64) throws -> MediaAttachment? { try MediaAttachment.fetchOne(db, key: id) }

    /// Stores a new attachment.
    public func insert(_ media: MediaAttachment) throws { try media.insert(db) }

    /// Stores every column of an existing attachment.
    public func update(_ media: MediaAttachment) throws { try media.update(db) }

    /// The photos of `postId`, in order (cached statement: asked for every rendered status).
    public func attachments(of postId: Int64) throws -> [MediaAttachment] {
        try MediaAttachment.fetchAll(db.cachedStatement(sql: "SELECT * FROM media_attachments WHERE post_id = ? ORDER BY position"),
                                     arguments: [postId])
    }

    /// How many attachments `postId` has.
    public func count(of postId: Int64) throws -> Int {
        try MediaAttachment.filter(Column("post_id") == postId).fetchCount(db)
    }

    /// Those of `ids` that are `accountId`'s own uploads and either unattached or (when
    /// editing) attached to `postId`: the ones a new or edited post may use.
    public func usableIds(_ ids: [Int64], of accountId: Int64, editing postId: Int64?) throws -> Set<Int64> {
        try Int64.fetchSet(db, sql: """
            SELECT id FROM media_attachments WHERE account_id = ? AND (post_id IS NULL OR post_id IS ?) AND id IN (\(ids.map { _ in "?" }.joined(separator: ",")))
            """, arguments: StatementArguments([accountId, postId]) + StatementArguments(ids))
    }
}
