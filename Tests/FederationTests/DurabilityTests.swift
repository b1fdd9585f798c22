@testable import Core
import Foundation
import GRDB
import Storage
import Testing
@testable import FedNode

/// What a node accepted or queued survives stops and crashes.
@Suite("Durability across restarts", .serialized)
struct DurabilityTests {
    /// Two nodes with alice@A following bob@B.
    private func pair() async throws -> (a: NetworkNode, b: NetworkNode, alice: Account, bob: Account) {
        let (a, b) = (try NetworkNode(name: "a"), try NetworkNode(name: "b"))
        try await a.start()
        try await b.start()
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let bob = try await b.node.accounts.create(username: "bob", email: "bob@b.test", password: "bob password")
        let bobOnA = try await a.node.remoteAccounts.resolve(username: "bob", domain: b.domain)
        try await a.node.interactions.follow(bobOnA, by: alice)
        try await eventually("follow accepted") {
            try a.read { try Follow.filter(Column("state") == "accepted").fetchCount($0) } == 1
        }
        // The Accept started a read of bob's outbox; once it is done, bob's posts reach A by
        // delivery only, which is what these tests are about.
        try await eventually("A read bob's outbox") { await a.node.backgroundJobs.completed == 1 }
        return (a, b, alice, bob)
    }

    @Test("a follower's node that was down while a post was made receives it after it restarts")
    func stoppedFollowerCatchesUp() async throws {
        let (a, b, alice, bob) = try await pair()
        defer { [a, b].forEach { $0.remove() } }
        await a.stop()
        let post = try await b.node.posts.create(.init(text: "Posted while A was down #offline"), by: bob)
        try await eventually("B's delivery to A failed and is queued for retry") {
            try b.read { try Delivery.filter(Column("attempts") >= 1).fetchCount($0) } == 1
        }
        try await a.restart()
        // Let the backoff elapse: make the queued retry due now, then run B's delivery pass.
        try await b.node.database.writeSQL { db in
            try db.execute(sql: "UPDATE delivery_queue SET next_attempt_at = ?", arguments: [Date()])
        }
        _ = await DeliveryWorker(node: b.node).deliverDue()
        try await eventually("A has bob's post in alice's timeline") {
            try a.read { try HomeTimeline.page(readerId: alice.id, in: $0) }.contains { $0.uri == post.uri }
        }
        await a.stop()
        await b.stop()
    }

    @Test("an activity accepted with 202 just before a crash is processed after restart")
    func acceptedSurvivesCrash() async throws {
        let (a, b, alice, bob) = try await pair()
        defer { [a, b].forEach { $0.remove() } }
        // A answers 202 and stores, but dies before its worker runs.
        try await a.restart(workers: false)
        let post = try await b.node.posts.create(.init(text: "Accepted, then the lights went out"), by: bob)
        try await eventually("A accepted and queued the Create") {
            try a.read { try InboxItem.fetchCount($0) } == 1
        }
        #expect(try a.read { try Post.filter(Column("uri") == post.uri).fetchCount($0) } == 0)
        try await a.restart()
        try await eventually("A processed the queued Create after restart") {
            try a.read { try HomeTimeline.page(readerId: alice.id, in: $0) }.contains { $0.uri == post.uri }
        }
        // The queue row goes once the handler's transaction is done (a separate write).
        try await eventually("A emptied its inbox queue") { try a.read { try InboxItem.fetchCount($0) } == 0 }
        await a.stop()
        await b.stop()
    }
}
