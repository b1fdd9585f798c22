@testable import Core
import Foundation
import GRDB
import Storage
import Testing
@testable import FedNode

/// A scheduled post survives a restart of its node and appears at its time, published once,
/// and reaches a follower on another node.
@Suite("Scheduled posts across a restart", .serialized)
struct ScheduledPublishingTests {
    @Test("scheduled a few seconds ahead, the node restarted in between: the post appears on time, once, and federates")
    func publishedAfterRestart() async throws {
        let a = try NetworkNode(name: "sched-a") { $0.minimumScheduleLead = 2 }
        let b = try NetworkNode(name: "sched-b")
        defer { [a, b].forEach { $0.remove() } }
        for node in [a, b] { try await node.start() }
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let bob = try await b.node.accounts.create(username: "bob", email: "bob@b.test", password: "bob password")
        let aliceOnB = try await b.node.remoteAccounts.resolve(username: "alice", domain: a.domain)
        try await b.node.interactions.follow(aliceOnB, by: bob)
        try await eventually("bob follows alice") {
            try b.read { try Follow.filter(Column("account_id") == bob.id && Column("state") == "accepted").fetchCount($0) } == 1
        }

        let at = Date().addingTimeInterval(12)
        let scheduled = try await ScheduledPostService(node: a.node).schedule(.init(text: "Published while you slept"), at: at, by: alice)
        await a.stop()
        try await a.start()
        try await eventually("the post appears on A", within: 60) {
            try a.read { try Post.filter(Column("account_id") == alice.id).fetchCount($0) } == 1
        }
        let post = try #require(try a.read { try Post.filter(Column("account_id") == alice.id).fetchOne($0) })
        #expect(post.createdAt >= at.addingTimeInterval(-1), "not before its time")
        // The scheduled row goes in its own write just after the post's, so it is waited for.
        try await eventually("the scheduled post is gone from the queue") {
            try await a.node.database.read { try $0.scheduledPosts.find(id: scheduled.id, owner: alice.id) } == nil
        }
        try await eventually("the post reaches bob's node") { try b.read { try Post.filter(Column("uri") == post.uri).fetchCount($0) } == 1 }
        try await Task.sleep(for: .seconds(Int(ScheduledPublisher.interval) + 1))
        #expect(try a.read { try Post.filter(Column("account_id") == alice.id).fetchCount($0) } == 1, "published once")
        for node in [a, b] { await node.stop() }
    }
}
