import Activity
import Storage

/// `Accept` of one of our Follows: the follow becomes accepted, the followed account's known
/// posts join the follower's home timeline in the same transaction, and its outbox is read in
/// the background for the posts this node has not seen (`OutboxBackfill`).
package struct AcceptHandler: InboxHandler {
    package func handle(_ context: InboxContext) async throws(NodeError) -> InboxOutcome {
        let newlyAccepted = try await context.write { db -> Bool? in
            guard let follow = try OwnFollow.find(context, in: db) else { return nil }
            // A repeated Accept changes nothing (handlers are idempotent).
            guard follow.state == .pending else { return false }
            var accepted = follow
            accepted.state = .accepted
            try db.follows.update(accepted)
            try db.timelines.backfill(author: follow.targetAccountId, into: follow.accountId)
            return true
        }
        guard let newlyAccepted else { return .ignored("Accept of an unknown follow") }
        if newlyAccepted { await OutboxBackfill.start(for: context.actor, node: context.node) }
        return .processed
    }
}

/// `Reject` of one of our Follows (or a later removal of a follower): the follow is gone.
package struct RejectHandler: InboxHandler {
    package func handle(_ context: InboxContext) async throws(NodeError) -> InboxOutcome {
        let changed = try await context.write { db in
            guard let follow = try OwnFollow.find(context, in: db) else { return false }
            try db.follows.delete(follow)
            try db.timelines.remove(author: follow.targetAccountId, from: follow.accountId)
            return true
        }
        return changed ? .processed : .ignored("Reject of an unknown follow")
    }
}

/// Finds the local follow an Accept or Reject answers: by the Follow's id, or by its
/// (local follower, the answering actor) pair, since some servers echo only part of it.
package enum OwnFollow {
    package static func find(_ context: InboxContext, in db: Transaction) throws -> Follow? {
        if let id = context.objectId, let follow = try db.follows.find(uri: id, target: context.actor.id) {
            return follow
        }
        guard let followerURI = context.activity.object?.object?.actor?.id,
            let follower = try db.accounts.find(uri: followerURI), follower.isLocal
        else { return nil }
        return try db.follows.find(follower: follower.id, target: context.actor.id)
    }
}
