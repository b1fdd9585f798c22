import GRDB
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
        while let id = next, chain.count < maxDepth, seen.insert(id).inserted, let parent = try Post.fetchOne(db.grdb, key: id) {
            chain.append(parent)
            next = parent.inReplyToId
        }
        return try chain.reversed().filter { try PostVisibility.canSee($0, viewer: viewer, in: db) }
    }

    /// The comments under `post` and their replies in thread order: depth first, siblings
    /// oldest first.
    static func descendants(of post: Post, viewer: Int64?, in db: Transaction) throws -> [Post] {
        let (visible, arguments) = PostVisibility.condition("p", viewer: viewer)
        // Each row's path is its ancestors' zero-padded ids, so sorting by path is a depth-first walk.
        return try Post.fetchAll(db.grdb, sql: """
            WITH RECURSIVE thread(id, path, depth) AS (
              SELECT id, printf('%020d', id), 1 FROM posts WHERE in_reply_to_id = ?
              UNION ALL
              SELECT c.id, thread.path || '/' || printf('%020d', c.id), thread.depth + 1
              FROM posts c JOIN thread ON c.in_reply_to_id = thread.id WHERE thread.depth < ?
            )
            SELECT p.* FROM thread JOIN posts p ON p.id = thread.id WHERE \(visible) ORDER BY thread.path LIMIT ?
            """, arguments: [post.id, maxDepth] + arguments + [maxDescendants])
    }
}
