import Activity
import Storage

/// `Follow` of a local account: recorded, then answered with `Accept` (or held pending when the
/// account approves followers by hand; answered with `Reject` when it blocks the follower or
/// hides the follower's domain).
package struct FollowHandler: InboxHandler {
    package func handle(_ context: InboxContext) async throws(NodeError) -> InboxOutcome {
        guard let target = try await context.localAccount(context.objectId) else { return .ignored("Follow of a non-local account") }
        let follower = context.actor
        let builder = ActivityBuilder(urls: context.node.urls)
        let followId = context.activity.id
        try await context.write { db in
            if try Relationships.blocks(target.id, follower.id, in: db) || db.accountDomainBlocks.hidesDomain(ofAccount: follower.id, viewer: target.id) {
                let reject = builder.answer("Reject", followId: followId, follower: follower, target: target)
                try Outbox.record(reject, sender: target, postId: nil, inboxes: Outbox.inbox(of: follower), in: db)
                return
            }
            var follow = try db.follows.find(follower: follower.id, target: target.id)
                ?? Follow(accountId: follower.id, targetAccountId: target.id, uri: followId, state: target.locked ? .pending : .accepted)
            follow.uri = followId ?? follow.uri
            try db.follows.save(follow)
            if follow.state == .accepted {
                // Answer again even when already accepted: the follower may have missed it.
                let accept = builder.answer("Accept", followId: followId, follower: follower, target: target)
                try Outbox.record(accept, sender: target, postId: nil, inboxes: Outbox.inbox(of: follower), in: db)
            }
            let type: NotificationType = follow.state == .accepted ? .follow : .followRequest
            try db.notifications.add(AccountNotification(accountId: target.id, fromAccountId: follower.id, type: type, postId: nil))
        }
        context.node.deliverySignal.notify()
        return .processed
    }
}
