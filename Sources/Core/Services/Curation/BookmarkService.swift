import Storage

/// Bookmarking posts: private to their owner, never federated.
package struct BookmarkService: Sendable {
    package let node: Node

    /// Acts for `node`.
    package init(node: Node) {
        self.node = node
    }

    /// Bookmarks post `postId`, which `owner` must be able to see; a boost stands for the post
    /// it boosted.
    /// - Returns: The post bookmarked.
    /// - Throws: `NodeError.notFound` for a post `owner` cannot see.
    package func add(_ postId: Int64, by owner: Account) async throws(NodeError) -> Post {
        try await node.write("bookmark") { db -> Post in
            let post = try PostVisibility.visibleOriginal(postId, viewer: owner, in: db)
            try db.bookmarks.add(account: owner.id, post: post.id)
            return post
        }
    }

    /// Removes `owner`'s bookmark of post `postId` (also of a post no longer visible to them).
    /// - Returns: The post unbookmarked.
    /// - Throws: `NodeError.notFound` for a post neither bookmarked nor visible.
    package func remove(_ postId: Int64, by owner: Account) async throws(NodeError) -> Post {
        try await node.write("bookmark") { db -> Post in
            let post: Post
            if try db.bookmarks.exists(account: owner.id, post: postId), let found = try db.posts.find(id: postId) {
                post = found
            } else {
                post = try PostVisibility.visibleOriginal(postId, viewer: owner, in: db)
            }
            try db.bookmarks.remove(account: owner.id, post: post.id)
            return post
        }
    }
}
