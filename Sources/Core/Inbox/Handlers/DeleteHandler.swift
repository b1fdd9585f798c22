import Activity
import Storage

/// `Delete` of the actor's own post (bare id or `Tombstone`): the post, its timeline entries,
/// boosts and notifications go. `Delete` of the actor itself: the account and all its content go.
package struct DeleteHandler: InboxHandler {
    package func handle(_ context: InboxContext) async throws(NodeError) -> InboxOutcome {
        guard let objectId = context.objectId else { throw .badRequest("Delete without object") }
        let actor = context.actor
        if objectId == actor.uri {
            try await context.write { db in _ = try db.accounts.delete(actor) }
            await context.node.keys.forget(keyIds: actor.publicKeyId)
            return .processed
        }
        guard context.isActorsOwn(objectId) else { throw .forbidden("Delete of an object from another host") }
        let deleted = try await context.write { db -> Bool in
            guard let post = try db.posts.find(uri: objectId) else { return false }
            guard post.accountId == actor.id else { throw NodeError.forbidden("Delete of someone else's post") }
            // Foreign keys cascade to timeline entries, notifications, likes, media and boosts.
            return try db.posts.delete(post)
        }
        return deleted ? .processed : .ignored("Delete of an unknown post")
    }
}
