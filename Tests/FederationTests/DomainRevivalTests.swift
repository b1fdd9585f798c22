@testable import Core
import Foundation
import GRDB
import Storage
import Testing
@testable import FedNode

/// A domain marked unavailable comes back as soon as it sends us a verified activity, instead
/// of waiting for the hourly probe.
@Suite("Unavailable domain revived by its own traffic", .serialized)
struct DomainRevivalTests {
    @Test("deliveries held for an unavailable domain go out once it sends us an activity")
    func revival() async throws {
        let (a, b) = (try NetworkNode(name: "revive-a"), try NetworkNode(name: "revive-b"))
        defer { [a, b].forEach { $0.remove() } }
        for node in [a, b] { try await node.start() }
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let bob = try await b.node.accounts.create(username: "bob", email: "bob@b.test", password: "bob password")
        let bobOnA = try await a.node.remoteAccounts.resolve(username: "bob", domain: b.domain)
        let aliceOnB = try await b.node.remoteAccounts.resolve(username: "alice", domain: a.domain)
        try await a.node.interactions.follow(bobOnA, by: alice)
        try await b.node.interactions.follow(aliceOnB, by: bob)
        try await eventually("both follows accepted") {
            let onA = try a.read { try Follow.filter(Column("state") == "accepted").fetchCount($0) }
            let onB = try b.read { try Follow.filter(Column("state") == "accepted").fetchCount($0) }
            return onA == 2 && onB == 2
        }

        // A has given up on B for now: failing for a week, last failure just now (no probe due).
        try await a.node.database.writeSQL { db in
            var health = DeliveryDomain(domain: b.domain)
            health.failingSince = Date().addingTimeInterval(-8 * 86_400)
            health.lastFailureAt = Date()
            health.unavailable = true
            try health.save(db)
        }
        // Followers-only, so it can reach B by delivery alone (B's backfill of alice's outbox,
        // started when bob's follow was accepted, lists public posts only).
        let held = try await a.node.posts.create(.init(text: "Held back while B looked down", visibility: .private), by: alice)
        try await Task.sleep(for: .seconds(1))
        #expect(try b.read { try Post.filter(Column("uri") == held.uri).fetchCount($0) } == 0, "delivered to an unavailable domain")

        // bob posts; A receives it from B, marks B available, and the held post goes out.
        _ = try await b.node.posts.create(.init(text: "Back online"), by: bob)
        try await eventually("alice's held post reaches B") {
            try b.read { try Post.filter(Column("uri") == held.uri).fetchCount($0) } == 1
        }
        // A later failed attempt would mark B failing again until the next success clears it.
        try await eventually("A counts B available again") {
            let health = try a.read { try DeliveryDomain.fetchOne($0, key: b.domain) }
            return health.map { !$0.unavailable && $0.failingSince == nil } ?? false
        }
    }
}
