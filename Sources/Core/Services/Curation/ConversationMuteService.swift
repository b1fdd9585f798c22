import Storage

/// Muting conversations: no more notifications about the posts of a thread (mentions,
/// replies, likes, boosts, edits), for its muter only, never federated.
package struct ConversationMuteService: Sendable {
    package let node: Node

    /// Acts for `node`.
    package init(node: Node) {
        self.node = node
    }

    /// Mutes the conversation of post `postId` (a boost stands for the post it boosted), which
    /// `muter` must be able to see. Muting it again changes nothing.
    /// - Returns: The post.
    /// - Throws: `NodeError.notFound` for a post `muter` cannot see.
    package func mute(_ postId: Int64, by muter: Account) async throws(NodeError) -> Post {
        try await node.write("conversation mute") { db -> Post in
            let post = try PostVisibility.visibleOriginal(postId, viewer: muter, in: db)
            try db.conversationMutes.add(account: muter.id, top: db.conversations.threadRoot(of: post.id))
            return post
        }
    }

    /// Lifts `muter`'s mute of the conversation of post `postId`, if any.
    /// - Returns: The post.
    /// - Throws: `NodeError.notFound` for a post `muter` cannot see.
    package func unmute(_ postId: Int64, by muter: Account) async throws(NodeError) -> Post {
        try await node.write("conversation mute") { db -> Post in
            let post = try PostVisibility.visibleOriginal(postId, viewer: muter, in: db)
            try db.conversationMutes.remove(account: muter.id, thread: post.id)
            return post
        }
    }
}
