import Activity
import GRDB
import Storage

/// `Like` of a post we store: counted, and notified to a local author.
struct LikeHandler: InboxHandler {
    func handle(_ context: InboxContext) async throws(NodeError) -> InboxOutcome {
        guard let post = try await context.post(context.objectId) else { return .ignored("Like of an unknown post") }
        let liker = context.actor
        try await context.write { db in
            try Like(accountId: liker.id, postId: post.id, uri: context.activity.id).insert(db.grdb, onConflict: .ignore)
            if post.local, try !Relationships.blocks(post.accountId, liker.id, in: db) {
                try AccountNotification(accountId: post.accountId, fromAccountId: liker.id, type: .favourite, postId: post.id)
                    .insert(db.grdb, onConflict: .ignore)
            }
        }
        return .processed
    }
}
