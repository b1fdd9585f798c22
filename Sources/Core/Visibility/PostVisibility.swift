import Storage

/// Who may see a post, in one place for every endpoint: public and unlisted posts are seen by
/// everyone, followers-only posts by the author's accepted followers, direct posts by the
/// people mentioned; the author always; never anyone in a block relation with the author, or
/// on a domain the node blocks. The rule itself is `Posts.visibilityCondition` in Storage, which
/// every list query applies too.
public enum PostVisibility {
    /// Whether `viewerId` may see `post` (and, for a boost, the boosted post).
    public static func canSee(_ post: Post, viewer viewerId: Int64?, in db: Transaction) throws -> Bool {
        var ids = [post.id]
        if let original = post.reblogOfId { ids.append(original) }
        for id in ids {
            if try !db.posts.isVisible(id, to: viewerId) { return false }
        }
        return true
    }

    /// The post `id`, if `viewer` may see it (for a boost, the boosted post too).
    /// - Throws: `NodeError.notFound` otherwise, as for a post that does not exist.
    public static func visiblePost(_ id: Int64, viewer: Account?, in db: Transaction) throws -> Post {
        guard let post = try db.posts.find(id: id), try canSee(post, viewer: viewer?.id, in: db) else {
            throw NodeError.notFound("Record not found")
        }
        return post
    }

    /// The post `id` if `viewer` may see it, a boost standing for the post it boosted (what a
    /// like, a bookmark, a mute of the conversation or a report is about).
    /// - Throws: `NodeError.notFound` otherwise, or when the boosted post is gone.
    public static func visibleOriginal(_ id: Int64, viewer: Account?, in db: Transaction) throws -> Post {
        let post = try visiblePost(id, viewer: viewer, in: db)
        guard let originalId = post.reblogOfId else { return post }
        guard let original = try db.posts.find(id: originalId) else { throw NodeError.notFound("Record not found") }
        return original
    }
}
