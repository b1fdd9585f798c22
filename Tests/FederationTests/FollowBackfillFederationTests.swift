@testable import Core
import Foundation
import GRDB
import Storage
import Testing
@testable import FedNode

/// Following a remote account shows its posts at once: those this node already received
/// (merged when the follow is accepted) and those it never saw (read from the account's outbox).
@Suite("Backfill when following across nodes", .serialized)
struct FollowBackfillFederationTests {
    @Test("bob@B follows alice@A: once A accepts, bob's home timeline on B holds alice's posts B already knew")
    func knownPostsJoinTheTimeline() async throws {
        let (a, b) = (try NetworkNode(name: "known-a"), try NetworkNode(name: "known-b"))
        defer { [a, b].forEach { $0.remove() } }
        for node in [a, b] { try await node.start() }
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let bob = try await b.node.accounts.create(username: "bob", email: "bob@b.test", password: "bob password")
        let carol = try await b.node.accounts.create(username: "carol", email: "carol@b.test", password: "carol password")
        let aliceOnB = try await b.node.remoteAccounts.resolve(username: "alice", domain: a.domain)

        // carol follows alice first, so B receives alice's posts, the followers-only one too
        // (which alice's outbox does not list: only the merge can bring it to bob).
        try await b.node.interactions.follow(aliceOnB, by: carol)
        try await eventually("A knows carol follows alice") { try a.read { try Account.followersCount(of: alice.id, in: $0) } == 1 }
        let open = try await a.node.posts.create(.init(text: "Morning light"), by: alice)
        let followersOnly = try await a.node.posts.create(.init(text: "Just for followers", visibility: .private), by: alice)
        try await eventually("B has both posts") {
            try b.read { try Post.filter([open.uri, followersOnly.uri].contains(Column("uri"))).fetchCount($0) } == 2
        }
        #expect(try b.read { try HomeTimeline.page(readerId: bob.id, in: $0) }.isEmpty)

        try await b.node.interactions.follow(aliceOnB, by: bob)
        try await eventually("bob's home timeline on B shows alice's earlier posts") {
            // Remote posts sort by their `published` second, so only the set is certain.
            let uris = try b.read { try HomeTimeline.page(readerId: bob.id, in: $0) }.map(\.uri)
            return Set(uris) == [followersOnly.uri, open.uri] && uris.count == 2
        }
        #expect(try b.read { try Follow.filter(Column("account_id") == bob.id).fetchOne($0) }?.state == .accepted)
        for node in [a, b] { await node.stop() }
    }

    @Test("bob@B follows alice@A, whose three posts B never saw: B reads them from alice's outbox into bob's timeline")
    func outboxBackfill() async throws {
        let (a, b) = (try NetworkNode(name: "outbox-a"), try NetworkNode(name: "outbox-b"))
        defer { [a, b].forEach { $0.remove() } }
        for node in [a, b] { try await node.start() }
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let bob = try await b.node.accounts.create(username: "bob", email: "bob@b.test", password: "bob password")
        var posts: [Post] = []
        for text in ["Harbour at dawn", "Gulls #birds", "Nets drying"] {
            posts.append(try await a.node.posts.create(.init(text: text), by: alice))
        }
        let reply = try await a.node.posts.create(.init(text: "More gulls", inReplyToId: posts[1].id), by: alice)
        let hidden = try await a.node.posts.create(.init(text: "Followers only", visibility: .private), by: alice)
        #expect(try b.read { try Post.fetchCount($0) } == 0)

        let aliceOnB = try await b.node.remoteAccounts.resolve(username: "alice", domain: a.domain)
        try await b.node.interactions.follow(aliceOnB, by: bob)
        let expected = Set(([reply] + posts).map(\.uri))
        try await eventually("bob's home timeline on B shows alice's posts from her outbox") {
            let uris = try b.read { try HomeTimeline.page(readerId: bob.id, in: $0) }.map(\.uri)
            return Set(uris) == expected && uris.count == expected.count
        }
        let stored = try b.read { db in try Post.filter(Column("account_id") == aliceOnB.id).fetchAll(db) }
        #expect(Set(stored.map(\.uri)) == expected, "the followers-only post is not in the outbox")
        #expect(!stored.map(\.uri).contains(hidden.uri))
        // Stored through the Create path: the reply is a comment on its parent, the hashtag is kept.
        let parentOnB = try #require(stored.first { $0.uri == posts[1].uri })
        #expect(stored.first { $0.uri == reply.uri }?.inReplyToId == parentOnB.id)
        #expect(try b.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM post_hashtags WHERE post_id = ?", arguments: [parentOnB.id]) } == 1)
        for node in [a, b] { await node.stop() }
    }
}
