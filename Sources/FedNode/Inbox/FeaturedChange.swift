import Activity
import Storage

/// What `Add` and `Remove` to a remote actor's `featured` collection share: the checks that the
/// target is the actor's own featured collection and the object the actor's own post stored
/// here, as Mastodon's `ActivityPub::Activity::Add` checks them.
enum FeaturedChange {
    /// The post to pin or unpin for the sender, or the reason to ignore the activity.
    /// - Throws: `NodeError.forbidden` when the target or the object is someone else's.
    static func post(of context: InboxContext) async throws(NodeError) -> Result<Post, Ignored> {
        guard let target = context.activity.target?.id else { return .failure(Ignored("without target")) }
        guard try await featuredURL(of: context) == target else {
            // Other collections (featured tags, for one) are not kept here.
            guard context.isActorsOwn(target) else { throw .forbidden("Target collection is not the actor's") }
            return .failure(Ignored("to a collection other than featured"))
        }
        guard let objectId = context.objectId, context.isActorsOwn(objectId) else { throw .forbidden("Object is not the actor's") }
        guard let post = try await context.post(objectId) else { return .failure(Ignored("of an unknown post")) }
        guard post.accountId == context.actor.id, post.reblogOfId == nil else { throw .forbidden("Post is not the actor's") }
        return .success(post)
    }

    /// The sender's `featured` URL as stored; an actor stored before it was kept is read again.
    private static func featuredURL(of context: InboxContext) async throws(NodeError) -> String? {
        if let known = context.actor.featuredUrl { return known }
        return try await RemoteActorResolver(node: context.node).resolve(uri: context.actor.uri, refresh: true).featuredUrl
    }

    /// Why an activity changes nothing.
    struct Ignored: Error {
        /// The reason, without the activity's type.
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
