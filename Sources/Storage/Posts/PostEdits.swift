import GRDB

extension Transaction {
    /// Earlier versions of edited posts.
    public var postEdits: PostEdits { PostEdits(db: session) }
}

/// Earlier versions of edited posts.
public struct PostEdits { let db: SQLSession }

extension PostEdits {
    /// Stores one version of a post.
    public func add(_ edit: PostEdit) throws { try edit.insert(db) }

    /// Whether `postId` has stored versions (it was edited since versions are kept).
    public func exists(of postId: Int64) throws -> Bool {
        try PostEdit.filter(Column("post_id") == postId).fetchCount(db) > 0
    }

    /// The stored versions of `postId`, oldest first.
    public func versions(of postId: Int64) throws -> [PostEdit] {
        try PostEdit.filter(Column("post_id") == postId).order(Column("id")).fetchAll(db)
    }
}
