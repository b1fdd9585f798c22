import Activity
import Storage

/// `Like` of a post we store: counted, and notified to a local author.
package struct LikeHandler: InboxHandler {
    package func handle(_ context: InboxContext) async throws(NodeError) -> InboxOutcome {
        guard let post = try await context.post(context.objectId) else { return .ignored("Like of an unknown post") }
        let liker = context.actor
        try await context.write { db in
            try db.likes.add(Like(accountId: liker.id, postId: post.id, uri: context.activity.id))
            if post.local, try !Relationships.blocks(post.accountId, liker.id, in: db) {
                try db.notifications.add(
                    AccountNotification(accountId: post.accountId, fromAccountId: liker.id, type: .favourite, postId: post.id))
            }
        }
        return .processed
    }
}
