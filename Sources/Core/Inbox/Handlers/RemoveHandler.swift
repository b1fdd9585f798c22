import Activity
import Storage

/// `Remove` of the actor's own post from its `featured` collection: the pin is dropped here.
package struct RemoveHandler: InboxHandler {
    package func handle(_ context: InboxContext) async throws(NodeError) -> InboxOutcome {
        switch try await FeaturedChange.post(of: context) {
        case .failure(let ignored): return .ignored("Remove \(ignored.reason)")
        case .success(let post):
            let actorId = context.actor.id
            try await context.write { db in _ = try db.pins.remove(account: actorId, post: post.id) }
            return .processed
        }
    }
}
