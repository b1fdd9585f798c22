import Activity
import Storage

/// `Add` of the actor's own post to its `featured` collection: the post is pinned on that
/// remote profile here, so `GET /api/v1/accounts/:id/statuses?pinned=true` shows it.
package struct AddHandler: InboxHandler {
    package func handle(_ context: InboxContext) async throws(NodeError) -> InboxOutcome {
        switch try await FeaturedChange.post(of: context) {
        case .failure(let ignored): return .ignored("Add \(ignored.reason)")
        case .success(let post):
            let actorId = context.actor.id
            try await context.write { db in _ = try db.pins.add(account: actorId, post: post.id) }
            return .processed
        }
    }
}
