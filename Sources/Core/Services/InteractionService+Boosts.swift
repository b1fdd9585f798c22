import Activity
import Foundation
import Storage

/// Boosts (Mastodon's reblogs, ActivityPub's `Announce`) by local accounts.
extension InteractionService {
    /// Boosts a public or unlisted post: a boost row whose `uri` is the Announce's id, entries
    /// in the booster's followers' (and the booster's own) home timelines, a `reblog`
    /// notification for a local author, and `Announce` to the booster's remote followers and
    /// a remote author, all in one transaction. Boosting twice returns the first boost.
    /// - Parameters:
    ///   - postId: The post (a boost's id means the post it boosted).
    ///   - booster: Who boosts.
    ///   - visibility: public, unlisted or private (followers only); a boost of an unlisted
    ///     post is at most unlisted.
    /// - Returns: The boost row.
    /// - Throws: `.notFound` for an unknown post, `.forbidden` for a followers-only or direct
    ///   post or a block between booster and author, `.validation` for a direct boost.
    @discardableResult
    public func reblog(_ postId: Int64, by booster: Account, visibility: Visibility = .public) async throws(NodeError) -> Post {
        guard visibility != .direct else { throw .validation("Validation failed: Visibility is not included in the list") }
        let urls = node.urls
        let boost = try await boostWrite { db -> Post in
            let (original, author) = try Self.boostable(postId, in: db)
            if try Relationships.blocks(booster.id, author.id, in: db) { throw NodeError.forbidden("This action is not allowed") }
            if let existing = try Self.boost(of: original.id, by: booster.id, in: db) { return existing }
            let id = Snowflake.next()
            var boost = Post(id: id, uri: urls.activity(booster.username, id: id), accountId: booster.id, local: true)
            boost.reblogOfId = original.id
            boost.visibility = original.visibility == .unlisted && visibility == .public ? .unlisted : visibility
            try db.posts.insert(boost)
            try db.timelines.fanOut(post: boost.id, author: booster.id, includeAuthor: true)
            if author.isLocal, author.id != booster.id {
                try db.notifications.add(AccountNotification(accountId: author.id, fromAccountId: booster.id, type: .reblog, postId: original.id))
            }
            let announce = Self.announce(boost, of: original, by: booster, author: author, urls: urls)
            try Outbox.record(announce, sender: booster, postId: boost.id, inboxes: Self.boostInboxes(booster, author, in: db), in: db)
            return boost
        }
        node.deliverySignal.notify()
        return boost
    }

    /// Takes a boost back: the row goes (its timeline entries with it), the author's
    /// notification too, and `Undo(Announce)` goes wherever the Announce went. Idempotent.
    /// - Parameter postId: The boosted post (or the boost itself).
    public func unreblog(_ postId: Int64, by booster: Account) async throws(NodeError) {
        let urls = node.urls
        try await boostWrite { db in
            let target = try db.posts.find(id: postId).map { $0.reblogOfId ?? $0.id } ?? postId
            guard let boost = try Self.boost(of: target, by: booster.id, in: db),
                let original = try db.posts.find(id: target), let author = try db.accounts.find(id: original.accountId)
            else { return }
            let announce = Self.announce(boost, of: original, by: booster, author: author, urls: urls)
            let inboxes = try Self.boostInboxes(booster, author, in: db)
            // An Announce still waiting for delivery is simply not sent.
            try db.deliveries.cancelQueued(activityURI: boost.uri)
            try db.notifications.removeReblog(from: booster.id, post: original.id)
            try db.posts.delete(boost)
            let undo = ActivityBuilder(urls: urls).undo(announce, actor: booster, to: announce.to + announce.cc)
            try Outbox.record(undo, sender: booster, postId: nil, inboxes: inboxes, in: db)
        }
        node.deliverySignal.notify()
    }

    /// The post a boost of `postId` would share, with its author; only public and unlisted posts.
    private static func boostable(_ postId: Int64, in db: Transaction) throws -> (Post, Account) {
        guard var post = try db.posts.find(id: postId) else { throw NodeError.notFound("Record not found") }
        if let originalId = post.reblogOfId {
            guard let original = try db.posts.find(id: originalId) else { throw NodeError.notFound("Record not found") }
            post = original
        }
        guard let author = try db.accounts.find(id: post.accountId) else { throw NodeError.notFound("Record not found") }
        guard post.visibility == .public || post.visibility == .unlisted else { throw NodeError.forbidden("This action is not allowed") }
        return (post, author)
    }

    /// `accountId`'s boost of `postId`, if any.
    package static func boost(of postId: Int64, by accountId: Int64, in db: Transaction) throws -> Post? {
        try db.posts.boost(of: postId, by: accountId)
    }

    /// The `Announce` for `boost`, addressed as its visibility says (as Mastodon addresses
    /// reblogs): public to Public, unlisted to the followers with Public in cc, private to the
    /// followers only; the boosted post's author always in cc.
    private static func announce(_ boost: Post, of original: Post, by booster: Account, author: Account, urls: NodeURLs) -> ASObject {
        var announce = ActivityBuilder(urls: urls).announce(id: boost.uri, booster: booster, post: original, author: author,
                                                             published: boost.createdAt)
        let followers = booster.followersUrl ?? booster.uri + "/followers"
        switch boost.visibility {
        case .unlisted: (announce.to, announce.cc) = ([followers], [ActivityStreams.publicAddress, author.uri])
        case .private, .direct: (announce.to, announce.cc) = ([followers], [author.uri])
        case .public: break
        }
        return announce
    }

    /// The booster's remote followers' inboxes and a remote author's inbox.
    private static func boostInboxes(_ booster: Account, _ author: Account, in db: Transaction) throws -> [String] {
        let inboxes = try Outbox.followerInboxes(of: booster.id, in: db) + Outbox.inbox(of: author)
        var seen = Set<String>()
        return inboxes.filter { seen.insert($0).inserted }
    }

    private func boostWrite<T: Sendable>(_ body: @Sendable (Transaction) throws -> T) async throws(NodeError) -> T {
        do { return try await node.database.write(body) } catch let error as NodeError { throw error } catch {
            throw .internal("boost write: \(error)")
        }
    }
}
