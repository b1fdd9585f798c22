@testable import Core
import Foundation
import GRDB
import Signatures
import Storage
import Testing
@testable import FedNode

/// A blocked domain is blocked everywhere: nothing is delivered to it, nothing is looked up on
/// it, and its objects are refused whoever relays them. Failures worth retrying are retried.
@Suite("Domain blocks and transient failures", .serialized)
struct InboxDomainBlockTests {
    static func activity(_ type: String, id: String, actor: String, object: Any) -> [String: Any] {
        ["@context": "https://www.w3.org/ns/activitystreams", "id": id, "type": type, "actor": actor, "object": object,
         "to": ["https://www.w3.org/ns/activitystreams#Public"]]
    }

    @Test("blocking a domain drops its queued deliveries and queues no new ones")
    func nothingIsDeliveredToABlockedDomain() async throws {
        let (a, evil) = (try NetworkNode(name: "a"), try HostileOrigin())
        defer { a.remove() }
        try await a.start(workers: false)
        try await evil.start()
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        evil.serve("/users/fan", json: evil.actor("fan"))
        let fan = "\(evil.base)/users/fan"
        #expect(try await evil.deliver(Self.activity("Follow", id: fan + "/follows/1", actor: fan, object: alice.uri), to: a, keyId: fan + "#main-key") == 202)
        await InboxWorker(node: a.node).processDue()
        #expect(try a.read { try Delivery.filter(Column("domain") == evil.domain).fetchCount($0) } == 1, "the Accept is queued")

        try await a.node.database.writeSQL { try DomainBlock(domain: evil.domain).insert($0) }
        #expect(try a.read { try Delivery.fetchCount($0) } == 0, "queued deliveries to the blocked domain are dropped")
        _ = try await a.node.posts.create(.init(text: "Only for friends"), by: alice)
        #expect(try a.read { try Delivery.fetchCount($0) } == 0, "a new post is not delivered to the blocked follower")
        try await a.node.database.writeSQL { try DomainBlock(domain: "example.com").insert($0) }
        #expect(try a.read { db in try DomainBlocks.isBlocked("Media.Example.com:8443", in: db) }, "subdomains are blocked too")
        #expect(try a.read { db in try DomainBlocks.isBlocked("notexample.com", in: db) } == false)
        await evil.stop()
        await a.stop()
    }

    @Test("lookups never reach a blocked domain, and its objects are refused when someone else relays them")
    func blockedDomainsAreNotLookedUp() async throws {
        let (a, evil, relay) = (try NetworkNode(name: "a"), try HostileOrigin(), try HostileOrigin())
        defer { a.remove() }
        try await a.start(workers: false)
        try await evil.start()
        try await relay.start()
        _ = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        evil.serve("/users/evil", json: evil.actor("evil"))
        try await a.node.database.writeSQL { try DomainBlock(domain: evil.domain).insert($0) }

        await #expect(throws: NodeError.self) { try await a.node.remoteAccounts.resolve(username: "evil", domain: evil.domain) }
        await #expect(throws: NodeError.self) { try await a.node.remoteAccounts.resolve(uri: "\(evil.base)/users/evil") }
        #expect(evil.hits.isEmpty, "no WebFinger or actor fetch on a blocked domain")

        relay.serve("/users/relay", json: relay.actor("relay"))
        let relayId = "\(relay.base)/users/relay"
        let boost = Self.activity("Announce", id: relayId + "/boosts/1", actor: relayId, object: "\(evil.base)/statuses/1")
        #expect(try await relay.deliver(boost, to: a, keyId: relayId + "#main-key") == 403)
        #expect(try a.read { try InboxItem.fetchCount($0) } == 0)
        await evil.stop()
        await relay.stop()
        await a.stop()
    }

    @Test("a 503 from the object's origin is retried, not refused for good")
    func transientFetchFailureIsRetried() async throws {
        let (a, origin) = (try NetworkNode(name: "a"), try HostileOrigin())
        defer { a.remove() }
        try await a.start(workers: false)
        try await origin.start()
        _ = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        origin.serve("/users/carol", json: origin.actor("carol"))
        let carol = "\(origin.base)/users/carol"
        let noteId = carol + "/statuses/1"
        origin.serve("/users/carol/statuses/1", .init(status: 503))
        let create = Self.activity("Create", id: noteId + "/activity", actor: carol, object: noteId)
        #expect(try await origin.deliver(create, to: a, keyId: carol + "#main-key") == 202)

        await InboxWorker(node: a.node).processDue()
        let pending = try #require(try a.read { try InboxItem.fetchOne($0) }, "kept for a retry")
        #expect(pending.attempts == 1)
        #expect(try a.read { try SeenActivity.fetchOne($0)?.outcome } == "queued")

        origin.serve("/users/carol/statuses/1", json: ["id": noteId, "type": "Note", "attributedTo": carol, "content": "<p>back</p>",
                                                       "to": ["https://www.w3.org/ns/activitystreams#Public"]])
        await InboxWorker(node: a.node).processDue(now: Date().addingTimeInterval(3600))
        #expect(try a.read { try Post.filter(Column("uri") == noteId).fetchOne($0)?.content } == "<p>back</p>")
        #expect(try a.read { try InboxItem.fetchCount($0) } == 0)
        await origin.stop()
        await a.stop()
    }
}
