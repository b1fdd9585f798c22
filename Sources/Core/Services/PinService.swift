import Activity
import Foundation
import Storage

/// Pinning one's own posts to one's profile (Mastodon's pinned statuses, ActivityPub's
/// `featured` collection). A pin or unpin and its `Add`/`Remove` to the followers' servers are
/// written in one transaction.
public struct PinService: Sendable {
    package let node: Node

    /// Acts for `node`.
    package init(node: Node) {
        self.node = node
    }

    /// How many posts an account may pin, as Mastodon.
    public static let maxPins = 5

    /// Pins `postId`, which must be `author`'s own public or unlisted post; pinning it again
    /// changes nothing.
    /// - Throws: `NodeError.validation` for someone else's post, a boost, a followers-only or
    ///   direct post, or a sixth pin; `.notFound` for an unknown post.
    public func pin(_ postId: Int64, by author: Account) async throws(NodeError) -> Post {
        let post = try await node.write("pin") { db -> Post in
            let post = try Self.pinnable(postId, by: author, in: db)
            guard try !db.pins.exists(account: author.id, post: post.id) else { return post }
            guard try db.pins.count(of: author.id) < Self.maxPins else {
                throw NodeError.validation("Validation failed: You have already pinned the maximum number of posts")
            }
            try db.pins.add(account: author.id, post: post.id)
            try deliver("Add", post: post, author: author, in: db)
            return post
        }
        node.deliverySignal.notify()
        return post
    }

    /// Unpins `postId` from `author`'s profile; unpinning a post that is not pinned changes
    /// nothing.
    public func unpin(_ postId: Int64, by author: Account) async throws(NodeError) -> Post {
        let post = try await node.write("pin") { db -> Post in
            guard let post = try db.posts.find(id: postId) else { throw NodeError.notFound("Record not found") }
            guard try db.pins.remove(account: author.id, post: post.id) else { return post }
            try deliver("Remove", post: post, author: author, in: db)
            return post
        }
        node.deliverySignal.notify()
        return post
    }

    /// The post `postId` if `author` may pin it.
    private static func pinnable(_ postId: Int64, by author: Account, in db: Transaction) throws -> Post {
        guard let post = try db.posts.find(id: postId), try PostVisibility.canSee(post, viewer: author.id, in: db) else {
            throw NodeError.notFound("Record not found")
        }
        guard post.reblogOfId == nil else { throw NodeError.validation("Validation failed: Boosts cannot be pinned") }
        guard post.accountId == author.id else { throw NodeError.validation("Validation failed: Someone else's post cannot be pinned") }
        guard post.visibility == .public || post.visibility == .unlisted else {
            throw NodeError.validation("Validation failed: Only public and unlisted posts can be pinned")
        }
        return post
    }

    /// Queues `Add`/`Remove` of `post` to the author's remote followers.
    private func deliver(_ type: String, post: Post, author: Account, in db: Transaction) throws {
        let activity = ActivityBuilder(urls: node.urls).featured(type, post: post, author: author)
        try Outbox.record(activity, sender: author, postId: nil, inboxes: try Outbox.followerInboxes(of: author.id, in: db), in: db)
    }
}
