@testable import Core
import Foundation
import GRDB
import Storage
import Testing
@testable import FedNode

/// Boosts across three real nodes: alice@A boosts bob@B's post, and carol@C, who follows
/// alice, sees the boost in her home timeline; bob is told; unboosting takes it back everywhere.
@Suite("Boost federation", .serialized)
struct BoostTests {
    @Test("a boost reaches the booster's followers on another node and the author's node; Undo removes it")
    func boostAndUndo() async throws {
        let (a, b, c) = (try NetworkNode(name: "a"), try NetworkNode(name: "b"), try NetworkNode(name: "c"))
        defer { [a, b, c].forEach { $0.remove() } }
        for node in [a, b, c] { try await node.start() }
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let bob = try await b.node.accounts.create(username: "bob", email: "bob@b.test", password: "bob password")
        let carol = try await c.node.accounts.create(username: "carol", email: "carol@c.test", password: "carol password")

        // alice follows bob (so his posts reach A); carol follows alice.
        let bobOnA = try await a.node.remoteAccounts.resolve(username: "bob", domain: b.domain)
        try await a.node.interactions.follow(bobOnA, by: alice)
        let aliceOnC = try await c.node.remoteAccounts.resolve(username: "alice", domain: a.domain)
        try await c.node.interactions.follow(aliceOnC, by: carol)
        try await eventually("both follows accepted") {
            let onA = try a.read { try Follow.filter(Column("account_id") == alice.id && Column("state") == "accepted").fetchCount($0) }
            let onC = try c.read { try Follow.filter(Column("account_id") == carol.id && Column("state") == "accepted").fetchCount($0) }
            return onA == 1 && onC == 1
        }
        try await eventually("A knows carol follows alice") { try a.read { try Account.followersCount(of: alice.id, in: $0) } == 1 }

        let post = try await b.node.posts.create(.init(text: "Fog over the bay"), by: bob)
        try await eventually("bob's post reaches A") { try a.read { try Post.filter(Column("uri") == post.uri).fetchCount($0) } == 1 }
        let copyOnA = try #require(try a.read { try Post.filter(Column("uri") == post.uri).fetchOne($0) })

        // alice boosts it.
        let boost = try await a.node.interactions.reblog(copyOnA.id, by: alice)
        #expect(boost.uri.hasPrefix("http://\(a.domain)/users/alice/activities/"))
        try await eventually("carol's home timeline on C shows alice's boost of bob's post") {
            try c.read { db in
                try HomeTimeline.page(readerId: carol.id, in: db).contains { entry in
                    guard entry.uri == boost.uri, let originalId = entry.reblogOfId else { return false }
                    return try Post.fetchOne(db, key: originalId)?.uri == post.uri
                }
            }
        }
        try await eventually("B records the boost and notifies bob") {
            let boosts = try b.read { try Post.filter(Column("uri") == boost.uri && Column("reblog_of_id") == post.id).fetchCount($0) }
            let notified = try b.read {
                try AccountNotification.filter(Column("account_id") == bob.id && Column("type") == "reblog").fetchCount($0)
            }
            return boosts == 1 && notified == 1
        }

        // alice takes it back: gone from C and B.
        try await a.node.interactions.unreblog(copyOnA.id, by: alice)
        #expect(try a.read { try Post.filter(Column("uri") == boost.uri).fetchCount($0) } == 0)
        try await eventually("the boost leaves carol's timeline on C and B") {
            let onC = try c.read { try Post.filter(Column("uri") == boost.uri).fetchCount($0) }
            let onB = try b.read { try Post.filter(Column("uri") == boost.uri).fetchCount($0) }
            return onC == 0 && onB == 0
        }
        #expect(try c.read { try HomeTimeline.page(readerId: carol.id, in: $0) }.allSatisfy { $0.uri != boost.uri })
        for node in [a, b, c] { await node.stop() }
    }
}
