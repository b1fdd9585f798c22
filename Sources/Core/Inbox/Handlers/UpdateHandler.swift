import Activity
import Foundation
import Storage

/// `Update` of the actor's own post (caption, attachments, edit time) or of the actor itself
/// (profile and key refreshed). A post's earlier version is kept for its edit history.
package struct UpdateHandler: InboxHandler {
    package func handle(_ context: InboxContext) async throws(NodeError) -> InboxOutcome {
        guard let objectId = context.objectId else { throw .badRequest("Update without object") }
        guard context.isActorsOwn(objectId) else { throw .forbidden("Update of an object from another host") }
        if objectId == context.actor.uri {
            // Refetch rather than trust the embedded copy: the key may have changed with it.
            _ = try await RemoteActorResolver(node: context.node).resolve(uri: objectId, refresh: true)
            return .processed
        }
        guard let stored = try await context.post(objectId) else { return .ignored("Update of an unknown post") }
        guard stored.accountId == context.actor.id else { throw .forbidden("Update of someone else's post") }
        let object = try await context.trustedObject()
        guard ASToPost.isPost(object) else { return .ignored("Update of a non-post object") }
        let inbound = try await InboundPost.make(object, author: context.actor, context: context)
        let node = context.node
        try await context.write { db in
            // A poll's new counts (Mastodon sends an `Update` of the `Question` at each vote)
            // are not an edit: the post and its history stay as they are.
            if let poll = inbound.poll { try db.polls.save(Self.merged(poll, into: stored.id, in: db)) }
            let sameMedia = try db.media.attachments(of: stored.id).map(\.remoteUrl) == inbound.media.map(\.remoteUrl)
            if inbound.poll != nil, sameMedia, inbound.post.content == stored.content, inbound.post.spoilerText == stored.spoilerText,
               inbound.post.sensitive == stored.sensitive { return }
            try PostHistory.keepPrevious(stored, in: db)
            var post = stored
            post.content = inbound.post.content
            post.spoilerText = inbound.post.spoilerText
            post.sensitive = inbound.post.sensitive
            post.editedAt = object.updated ?? Date()
            post.updatedAt = Date()
            try db.posts.update(post)
            try db.media.deleteAll(ofPost: post.id)
            for (position, var media) in inbound.media.enumerated() {
                media.postId = post.id
                media.position = position
                try db.media.insert(media)
            }
            try PostWriter.setHashtags(inbound.hashtags, of: post.id, in: db)
            try PostHistory.recordEdit(post, in: db)
        }
        return .processed
    }

    /// `poll` as the origin sends it, for the stored post `postId`, keeping when this node
    /// first saw it closed.
    private static func merged(_ poll: Poll, into postId: Int64, in db: Transaction) throws -> Poll {
        var updated = poll
        updated.postId = postId
        let stored = try db.polls.find(post: postId)
        updated.closedAt = poll.closedAt ?? stored?.closedAt
        return updated
    }
}
