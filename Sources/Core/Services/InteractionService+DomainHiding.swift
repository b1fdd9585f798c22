import Activity
import Foundation
import Storage

/// A person's own domain blocks and follower removal, as Mastodon's
/// `AfterBlockDomainFromAccountService` and `RemoveFromFollowersService` do them: the change,
/// the follows it ends and the `Reject`/`Undo` activities telling the other servers are one
/// transaction.
extension InteractionService {
    /// `account` hides `domain`: its notifications from that domain are deleted, its follows of
    /// that domain's accounts end (`Undo(Follow)`), and their follows of it end too, each told
    /// with `Reject(Follow)`. Hiding a domain already hidden changes nothing.
    public func hideDomain(_ domain: String, by account: Account) async throws(NodeError) {
        let urls = node.urls
        try await relationWrite { db in
            guard try db.accountDomainBlocks.add(account: account.id, domain: domain) else { return }
            try db.accountDomainBlocks.deleteNotifications(of: account.id, fromDomain: domain)
            for follow in try db.accountDomainBlocks.follows(of: account.id, withDomain: domain) {
                let otherId = follow.accountId == account.id ? follow.targetAccountId : follow.accountId
                guard let other = try db.accounts.find(id: otherId) else { continue }
                if follow.accountId == account.id {
                    try Self.withdraw(follow, follower: account, target: other, urls: urls, in: db)
                } else {
                    try Self.dropFollower(follow, follower: other, target: account, urls: urls, in: db)
                }
            }
        }
        node.deliverySignal.notify()
    }

    /// `account` shows `domain` again (nothing ended by hiding it comes back).
    public func unhideDomain(_ domain: String, by account: Account) async throws(NodeError) {
        try await relationWrite { db in _ = try db.accountDomainBlocks.remove(account: account.id, domain: domain) }
    }

    /// `target` removes `follower` from its followers: the follow is deleted and a remote
    /// follower's server gets `Reject` of the original `Follow`, so it drops the follow too.
    /// Removing someone who does not follow changes nothing.
    public func removeFollower(_ follower: Account, of target: Account) async throws(NodeError) {
        let urls = node.urls
        try await relationWrite { db in
            guard let follow = try db.follows.find(follower: follower.id, target: target.id), follow.state == .accepted else { return }
            try Self.dropFollower(follow, follower: follower, target: target, urls: urls, in: db)
        }
        node.deliverySignal.notify()
    }

    /// Deletes `follow` of `target` by `follower`; a remote follower gets `Reject(Follow)`
    /// naming the Follow's id, as Mastodon sends it.
    package static func dropFollower(_ follow: Follow, follower: Account, target: Account, urls: NodeURLs, in db: Transaction) throws {
        try db.follows.delete(follow)
        try db.timelines.remove(author: target.id, from: follower.id)
        guard !follower.isLocal else { return }
        let reject = ActivityBuilder(urls: urls).answer("Reject", followId: follow.uri, follower: follower, target: target)
        try Outbox.record(reject, sender: target, postId: nil, inboxes: Outbox.inbox(of: follower), in: db)
    }

    /// Deletes `follower`'s `follow` of `target`; a remote target gets `Undo(Follow)`.
    package static func withdraw(_ follow: Follow, follower: Account, target: Account, urls: NodeURLs, in db: Transaction) throws {
        try db.follows.delete(follow)
        try db.timelines.remove(author: target.id, from: follower.id)
        guard !target.isLocal else { return }
        let builder = ActivityBuilder(urls: urls)
        let original = builder.follow(id: follow.uri ?? builder.newId(follower), follower: follower, target: target)
        try Outbox.record(builder.undo(original, actor: follower, to: [target.uri]), sender: follower, postId: nil,
                          inboxes: Outbox.inbox(of: target), in: db)
    }

    private func relationWrite(_ body: @Sendable @escaping (Transaction) throws -> Void) async throws(NodeError) {
        do { try await node.database.write(body) } catch let error as NodeError { throw error } catch {
            throw .internal("relation write: \(error)")
        }
    }
}
