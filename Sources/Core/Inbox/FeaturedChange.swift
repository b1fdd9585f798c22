import Activity
import Storage

/// What `Add` and `Remove` to a remote actor's `featured` collection share: the checks that the
/// target is the actor's own featured collection and the object the actor's own post stored
/// here, as Mastodon's `ActivityPub::Activity::Add` checks them.
package enum FeaturedChange {
    /// The post to pin or unpin for the sender, or the reason to ignore the activity.
    /// - Throws: `NodeError.forbidden` when the target or the object is someone else's.
    package static func post(of context: InboxContext) async throws(NodeError) -> Result<Post, Ignored> {
        guard let target = context.activity.target?.id else { return .failure(Ignored("without target")) }
        guard context.isActorsOwn(target) else { throw .forbidden("Target collection is not the actor's") }
        // Other collections (featured tags, for one) are not kept here.
        guard try await featuredURL(of: context, matching: target) == target else {
            return .failure(Ignored("to a collection other than featured"))
        }
        guard let objectId = context.objectId, context.isActorsOwn(objectId) else { throw .forbidden("Object is not the actor's") }
        guard let post = try await context.post(objectId) else { return .failure(Ignored("of an unknown post")) }
        guard post.accountId == context.actor.id, post.reblogOfId == nil else { throw .forbidden("Post is not the actor's") }
        return .success(post)
    }

    /// The sender's `featured` URL: the stored one when it is `target`; otherwise read again
    /// from the actor's document on its origin (first Add, or a changed collection) and kept
    /// when it is on the actor's host.
    private static func featuredURL(of context: InboxContext, matching target: String) async throws(NodeError) -> String? {
        let (node, actorId) = (context.node, context.actor.id)
        let stored: String?
        do { stored = try await node.database.read { db in try db.pins.featuredCollection(of: actorId) } } catch {
            throw .internal("reading featured collection: \(error)")
        }
        if stored == target { return stored }
        let document = try await ObjectFetcher(node: node).fetch(context.actor.uri)
        guard document.id == context.actor.uri, let url = document.featured, context.isActorsOwn(url) else { return stored }
        try await context.write { db in try db.pins.setFeaturedCollection(url, of: actorId) }
        return url
    }

    /// Why an activity changes nothing.
    package struct Ignored: Error {
        /// The reason, without the activity's type.
        package let reason: String
        package init(_ reason: String) { self.reason = reason }
    }
}
