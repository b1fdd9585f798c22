import Activity
import Foundation
import Storage

/// Likes, follows and blocks by local accounts, local or across nodes. Each action writes its
/// rows, its activity and its deliveries in one transaction.
public struct InteractionService: Sendable {
    package let node: Node
    private var builder: ActivityBuilder { ActivityBuilder(urls: node.urls) }

    /// Likes a post; notifies a local author or sends `Like` to a remote one. Idempotent.
    public func like(_ postId: Int64, by liker: Account) async throws(NodeError) {
        try await node.write("interaction") { db in
            let (post, author) = try postAndAuthor(postId, in: db)
            guard try !db.likes.exists(account: liker.id, post: post.id) else { return }
            let id = builder.newId(liker)
            try db.likes.add(Like(accountId: liker.id, postId: post.id, uri: id))
            if author.isLocal {
                if author.id != liker.id {
                    try db.notifications.add(AccountNotification(accountId: author.id, fromAccountId: liker.id, type: .favourite, postId: post.id))
                }
            } else {
                try Outbox.record(builder.like(id: id, liker: liker, post: post, author: author), sender: liker, postId: nil,
                                  inboxes: Outbox.inbox(of: author), in: db)
            }
        }
        node.deliverySignal.notify()
    }

    /// Removes a like; sends `Undo(Like)` to a remote author.
    public func unlike(_ postId: Int64, by liker: Account) async throws(NodeError) {
        try await node.write("interaction") { db in
            let (post, author) = try postAndAuthor(postId, in: db)
            guard let like = try db.likes.find(account: liker.id, post: post.id) else { return }
            try db.likes.delete(like)
            try db.notifications.removeFavourite(from: liker.id, post: post.id)
            guard !author.isLocal else { return }
            let original = builder.like(id: like.uri ?? builder.newId(liker), liker: liker, post: post, author: author)
            try Outbox.record(builder.undo(original, actor: liker, to: [author.uri]), sender: liker, postId: nil, inboxes: Outbox.inbox(of: author), in: db)
        }
        node.deliverySignal.notify()
    }

    /// Follows `target`: accepted at once for unlocked local accounts, otherwise pending until
    /// the target (or its node, with `Accept`) approves. Refused when either blocks the other.
    /// Once accepted, the target's known posts are merged into the follower's home timeline.
    @discardableResult
    public func follow(_ target: Account, by follower: Account) async throws(NodeError) -> Follow {
        guard target.id != follower.id else { throw .validation("You cannot follow yourself") }
        let follow = try await node.write("interaction") { db -> Follow in
            if try Relationships.blocks(follower.id, target.id, in: db) { throw NodeError.forbidden("This action is not allowed") }
            if let existing = try db.follows.find(follower: follower.id, target: target.id) {
                return existing
            }
            let id = builder.newId(follower)
            let follow = Follow(accountId: follower.id, targetAccountId: target.id, uri: id,
                                state: target.isLocal && !target.locked ? .accepted : .pending)
            try db.follows.insert(follow)
            // Accepted at once: the target's earlier posts join the home timeline now.
            if follow.state == .accepted { try db.timelines.backfill(author: target.id, into: follower.id) }
            if target.isLocal {
                let type: NotificationType = follow.state == .accepted ? .follow : .followRequest
                try db.notifications.add(AccountNotification(accountId: target.id, fromAccountId: follower.id, type: type, postId: nil))
            } else {
                try Outbox.record(builder.follow(id: id, follower: follower, target: target), sender: follower, postId: nil,
                                  inboxes: Outbox.inbox(of: target), in: db)
            }
            return follow
        }
        node.deliverySignal.notify()
        return follow
    }

    /// Stops following (or cancels the request); their posts leave the home timeline.
    public func unfollow(_ target: Account, by follower: Account) async throws(NodeError) {
        try await node.write("interaction") { db in
            guard let follow = try db.follows.find(follower: follower.id, target: target.id) else { return }
            try db.follows.delete(follow)
            try db.timelines.remove(author: target.id, from: follower.id)
            guard !target.isLocal else { return }
            let original = builder.follow(id: follow.uri ?? builder.newId(follower), follower: follower, target: target)
            try Outbox.record(builder.undo(original, actor: follower, to: [target.uri]), sender: follower, postId: nil, inboxes: Outbox.inbox(of: target), in: db)
        }
        node.deliverySignal.notify()
    }

    /// Blocks `target`: follows both ways end, timelines are cleaned both ways, and a remote
    /// target's node is told with `Block` (so it stops showing them our posts).
    public func block(_ target: Account, by blocker: Account) async throws(NodeError) {
        guard target.id != blocker.id else { throw .validation("You cannot block yourself") }
        try await node.write("interaction") { db in
            guard try !db.blocks.exists(blocker: blocker.id, blocked: target.id) else { return }
            let id = builder.newId(blocker)
            try db.blocks.add(Block(accountId: blocker.id, targetAccountId: target.id, uri: id))
            try db.follows.deleteAll(between: blocker.id, and: target.id)
            try db.timelines.remove(author: target.id, from: blocker.id)
            try db.timelines.remove(author: blocker.id, from: target.id)
            guard !target.isLocal else { return }
            try Outbox.record(builder.block(id: id, blocker: blocker, target: target), sender: blocker, postId: nil, inboxes: Outbox.inbox(of: target), in: db)
        }
        node.deliverySignal.notify()
    }

    /// Lifts a block; a remote target's node gets `Undo(Block)`.
    public func unblock(_ target: Account, by blocker: Account) async throws(NodeError) {
        try await node.write("interaction") { db in
            guard let block = try db.blocks.find(blocker: blocker.id, target: target.id) else { return }
            try db.blocks.delete(block)
            guard !target.isLocal else { return }
            let original = builder.block(id: block.uri ?? builder.newId(blocker), blocker: blocker, target: target)
            try Outbox.record(builder.undo(original, actor: blocker, to: [target.uri]), sender: blocker, postId: nil, inboxes: Outbox.inbox(of: target), in: db)
        }
        node.deliverySignal.notify()
    }

    private func postAndAuthor(_ postId: Int64, in db: Transaction) throws -> (Post, Account) {
        guard let post = try db.posts.find(id: postId), let author = try db.accounts.find(id: post.accountId) else {
            throw NodeError.notFound("Record not found")
        }
        return (post, author)
    }
}
