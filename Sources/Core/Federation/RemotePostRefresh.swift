import Activity
import Foundation
import Storage

/// When someone opens a remote post, reads it again from its origin (at most every
/// `minimumInterval`): the origin's reply, boost and like figures (`totalItems`), and the first
/// items of its `replies` collection, so comments from servers this node does not follow
/// appear. Runs in the background within the node's bound on such jobs; every document is a
/// signed, SSRF-guarded fetch on the post's own host, and every reply is fetched from its own
/// origin and must answer as a reply to this post.
package struct RemotePostRefresh: Sendable {
    /// A post is read again at most this often (node-wide, kept in the database).
    package static let minimumInterval: TimeInterval = 300
    /// Most replies fetched per refresh.
    package static let maxReplies = 20
    /// Most `replies` pages read per refresh.
    package static let maxPages = 2
    package let node: Node

    /// Starts a refresh of `post` when it is remote and was not read within `minimumInterval`.
    package static func startIfDue(_ post: Post, node: Node, now: Date = Date()) async {
        guard !post.local, post.reblogOfId == nil, !node.urls.isLocal(post.uri) else { return }
        let last = try? await node.database.read { db in try db.posts.originCountsFetchedAt(of: post.id) }
        if let last = last ?? nil, now.timeIntervalSince(last) < minimumInterval { return }
        await node.backgroundJobs.start("refresh \(post.uri)") {
            await RemotePostRefresh(node: node).run(post, now: now)
        }
    }

    /// Reads `post` from its origin, saves its figures and stores the replies it lists.
    /// - Returns: How many listed replies are now stored.
    @discardableResult
    package func run(_ post: Post, now: Date = Date()) async -> Int {
        guard let host = ASToAccount.authority(of: post.uri) else { return 0 }
        do {
            let object = try await ObjectFetcher(node: node).fetch(post.uri)
            guard object.id == post.uri else { return 0 }
            let (counts, replies) = try await read(object, host: host)
            try await node.database.write { db in
                guard try db.posts.find(id: post.id) != nil else { return }
                try db.posts.saveOriginCounts(counts, of: post.id, at: now)
            }
            return await store(replies, of: post)
        } catch {
            // Marked as read anyway, so an origin that fails is not asked again at every open.
            _ = try? await node.database.write { db in
                if try db.posts.find(id: post.id) != nil { try db.posts.saveOriginCounts(OriginCounts(), of: post.id, at: now) }
            }
            node.logger.info("remote post refresh failed", metadata: ["uri": "\(post.uri)", "error": "\(error)"])
            return 0
        }
    }

    /// The origin's figures and the first reply ids (or same-host embedded replies) of `object`.
    private func read(_ object: ASObject, host: String) async throws(NodeError) -> (OriginCounts, [ASReference]) {
        let replies = try await collection(object.replies, host: host)
        var counts = OriginCounts()
        counts.replies = replies?.totalItems
        counts.reblogs = try await collection(object.shares, host: host)?.totalItems
        counts.favourites = try await collection(object.likes, host: host)?.totalItems
        guard let replies else { return (counts, []) }
        var items = replies.items ?? []
        var next = replies.first
        var pages = 0
        while items.count < Self.maxReplies, pages < Self.maxPages, let reference = next {
            guard let page = try await collection(reference, host: host) else { break }
            items += page.items ?? []
            next = page.next
            pages += 1
        }
        return (counts, Array(items.prefix(Self.maxReplies)))
    }

    /// A collection or page: embedded as sent, or fetched when it is on `host`; `nil` otherwise.
    private func collection(_ reference: ASReference?, host: String) async throws(NodeError) -> ASObject? {
        guard let reference else { return nil }
        if let embedded = reference.object { return embedded }
        guard let id = reference.id, ASToAccount.authority(of: id) == host else { return nil }
        return try? await ObjectFetcher(node: node).fetch(id)
    }

    /// Stores the listed replies not known yet, each from its own origin.
    private func store(_ replies: [ASReference], of post: Post) async -> Int {
        let resolver = RemotePostResolver(node: node)
        var stored = 0
        for reference in replies {
            guard let id = reference.id else { continue }
            do {
                _ = try await resolver.resolve(id, replyTo: post.uri, completeThread: false)
                stored += 1
            } catch {
                node.logger.debug("reply not stored", metadata: ["id": "\(id.prefix(200))", "error": "\(error)"])
            }
        }
        return stored
    }
}
