import Core
import Storage

/// A post's place in its thread: the posts it answers and the comments under it, each kept
/// only when the viewer may see it (PostVisibility: audience and blocks).
enum StatusThread {
    /// Deepest chain followed either way (Mastodon stops at similar depths).
    static let maxDepth = 64
    /// Most comments returned.
    static let maxDescendants = 4096

    /// The posts `post` answers, oldest first.
    static func ancestors(of post: Post, viewer: Int64?, in db: Transaction) throws -> [Post] {
        var chain: [Post] = []
        var seen: Set<Int64> = [post.id]
        var next = post.inReplyToId
        while let id = next, chain.count < maxDepth, seen.insert(id).inserted, let parent = try db.posts.find(id: id) {
            chain.append(parent)
            next = parent.inReplyToId
        }
        return try chain.reversed().filter { try PostVisibility.canSee($0, viewer: viewer, in: db) }
    }

    /// The comments under `post` and their replies in thread order: depth first, siblings
    /// oldest first.
    static func descendants(of post: Post, viewer: Int64?, in db: Transaction) throws -> [Post] {
        try db.posts.descendants(of: post.id, viewer: viewer, maxDepth: maxDepth, limit: maxDescendants)
    }
}
