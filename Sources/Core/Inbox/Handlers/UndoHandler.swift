import Activity
import Storage

/// `Undo` of the actor's own Follow, Like, Announce or Block (the inner object embedded or
/// referenced by id; only what the actor itself did can be undone).
package struct UndoHandler: InboxHandler {
    package func handle(_ context: InboxContext) async throws(NodeError) -> InboxOutcome {
        let inner = context.activity.object?.object
        let innerId = context.objectId
        let actor = context.actor
        if let innerActor = inner?.actor?.id, innerActor != actor.uri { throw .forbidden("Undo of someone else's activity") }
        let undone = try await context.write { db -> Bool in
            switch inner?.type {
            case "Follow": try Self.undoFollow(actor, inner: inner, innerId: innerId, in: db)
            case "Like": try Self.undoLike(actor, inner: inner, innerId: innerId, in: db)
            case "Announce": try Self.undoAnnounce(actor, innerId: innerId, in: db)
            case "Block": try Self.undoBlock(actor, inner: inner, innerId: innerId, in: db)
            default:
                // A bare id: whichever of our records carries it.
                try Self.undoFollow(actor, inner: nil, innerId: innerId, in: db)
                    || Self.undoLike(actor, inner: nil, innerId: innerId, in: db)
                    || Self.undoAnnounce(actor, innerId: innerId, in: db)
                    || Self.undoBlock(actor, inner: nil, innerId: innerId, in: db)
            }
        }
        return undone ? .processed : .ignored("Undo of nothing we know")
    }

    private static func undoFollow(_ actor: Account, inner: ASObject?, innerId: String?, in db: Transaction) throws -> Bool {
        let found: Follow?
        if let target = inner?.object?.id, let local = try db.accounts.find(uri: target) {
            found = try db.follows.find(follower: actor.id, target: local.id)
        } else {
            guard let innerId else { return false }
            found = try db.follows.find(follower: actor.id, uri: innerId)
        }
        guard let follow = found else { return false }
        try db.follows.delete(follow)
        try db.timelines.remove(author: follow.targetAccountId, from: actor.id)
        return true
    }

    private static func undoLike(_ actor: Account, inner: ASObject?, innerId: String?, in db: Transaction) throws -> Bool {
        let found: Like?
        if let postURI = inner?.object?.id, let post = try db.posts.find(uri: postURI) {
            found = try db.likes.find(account: actor.id, post: post.id)
        } else {
            guard let innerId else { return false }
            found = try db.likes.find(account: actor.id, uri: innerId)
        }
        guard let like = found else { return false }
        try db.likes.delete(like)
        try db.notifications.removeFavourite(from: actor.id, post: like.postId)
        return true
    }

    private static func undoAnnounce(_ actor: Account, innerId: String?, in db: Transaction) throws -> Bool {
        guard let innerId else { return false }
        return try db.posts.deleteBoost(uri: innerId, account: actor.id)
    }

    private static func undoBlock(_ actor: Account, inner: ASObject?, innerId: String?, in db: Transaction) throws -> Bool {
        if let target = inner?.object?.id, let local = try db.accounts.find(uri: target) {
            return try db.blocks.delete(blocker: actor.id, target: local.id)
        }
        guard let innerId else { return false }
        return try db.blocks.delete(blocker: actor.id, uri: innerId)
    }
}
