import Activity
import Foundation
import Storage

/// Follow requests to locked accounts: the target approves or declines each one. The change,
/// its notification and, for a remote follower, the `Accept` or `Reject` are one transaction.
extension InteractionService {
    /// Approves `requester`'s pending follow of `target`: the follow becomes accepted, `target`
    /// is notified of a new follower, and a remote requester's node gets `Accept(Follow)`.
    /// - Throws: `NodeError.notFound` when there is no pending request from `requester`.
    public func authorizeFollowRequest(from requesterId: Int64, to target: Account) async throws(NodeError) {
        let urls = node.urls
        try await requestWrite { db in
            let (follow, requester) = try Self.pendingRequest(from: requesterId, to: target, in: db)
            try Self.accept(follow, follower: requester, target: target, urls: urls, in: db)
        }
        node.deliverySignal.notify()
    }

    /// Declines `requester`'s pending follow of `target`: the request is deleted, and a remote
    /// requester's node gets `Reject(Follow)`.
    /// - Throws: `NodeError.notFound` when there is no pending request from `requester`.
    public func rejectFollowRequest(from requesterId: Int64, to target: Account) async throws(NodeError) {
        let urls = node.urls
        try await requestWrite { db in
            let (follow, requester) = try Self.pendingRequest(from: requesterId, to: target, in: db)
            try db.follows.delete(follow)
            try Self.forgetRequestNotification(of: follow, in: db)
            guard !requester.isLocal else { return }
            let reject = ActivityBuilder(urls: urls).answer("Reject", followId: follow.uri, follower: requester, target: target)
            try Outbox.record(reject, sender: target, postId: nil, inboxes: Outbox.inbox(of: requester), in: db)
        }
        node.deliverySignal.notify()
    }

    /// Approves every pending request to `target` (when it stops approving by hand). Runs inside
    /// the caller's transaction; the caller notifies the delivery worker.
    package static func acceptPendingRequests(of target: Account, urls: NodeURLs, in db: Transaction) throws {
        let pending = try db.follows.pendingRequests(to: target.id)
        for follow in pending {
            guard let follower = try db.accounts.find(id: follow.accountId) else { continue }
            try accept(follow, follower: follower, target: target, urls: urls, in: db)
        }
    }

    /// Marks `follow` accepted, swaps the request notification for a follow notification, and
    /// answers a remote follower with `Accept` (a local follower's home timeline gets the
    /// target's known posts instead).
    private static func accept(_ follow: Follow, follower: Account, target: Account, urls: NodeURLs, in db: Transaction) throws {
        var accepted = follow
        accepted.state = .accepted
        try db.follows.update(accepted)
        try forgetRequestNotification(of: follow, in: db)
        try db.notifications.add(AccountNotification(accountId: target.id, fromAccountId: follower.id, type: .follow, postId: nil))
        guard !follower.isLocal else {
            try db.timelines.backfill(author: target.id, into: follower.id)
            return
        }
        let accept = ActivityBuilder(urls: urls).answer("Accept", followId: follow.uri, follower: follower, target: target)
        try Outbox.record(accept, sender: target, postId: nil, inboxes: Outbox.inbox(of: follower), in: db)
    }

    /// The pending follow from `requesterId` to `target`, with the requester.
    private static func pendingRequest(from requesterId: Int64, to target: Account, in db: Transaction) throws -> (Follow, Account) {
        guard let follow = try db.follows.pendingRequest(from: requesterId, to: target.id),
            let requester = try db.accounts.find(id: requesterId)
        else { throw NodeError.notFound("Record not found") }
        return (follow, requester)
    }

    /// The request's notification goes with the request (Mastodon deletes it too).
    private static func forgetRequestNotification(of follow: Follow, in db: Transaction) throws {
        try db.notifications.removeFollowRequest(to: follow.targetAccountId, from: follow.accountId)
    }

    private func requestWrite(_ body: @Sendable @escaping (Transaction) throws -> Void) async throws(NodeError) {
        do { try await node.database.write(body) } catch let error as NodeError { throw error } catch {
            throw .internal("follow request write: \(error)")
        }
    }
}
