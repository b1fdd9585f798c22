@testable import Core
import Foundation
import GRDB
import Signatures
import Storage
import Testing
@testable import FedNode

/// Only the origin speaks for its ids: activity ids on another host are refused for every
/// type, de-duplication cannot be poisoned across servers, and id-less activities cannot be
/// replayed.
@Suite("Inbox origin checks", .serialized)
struct InboxOriginTests {
    struct Fixture {
        let a: NetworkNode
        let alice: Account
        let post: Post

        static func make() async throws -> Fixture {
            let a = try NetworkNode(name: "a")
            try await a.start(workers: false)
            let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
            let post = try await a.node.posts.create(.init(text: "Sunrise"), by: alice)
            return Fixture(a: a, alice: alice, post: post)
        }
    }

    static func activity(_ type: String, id: String?, actor: String, object: Any) -> [String: Any] {
        var activity: [String: Any] = ["@context": "https://www.w3.org/ns/activitystreams", "type": type, "actor": actor, "object": object,
                                       "to": ["https://www.w3.org/ns/activitystreams#Public"]]
        activity["id"] = id
        return activity
    }

    @Test("an Announce or Like with another server's id is refused, and cannot burn that id")
    func foreignIdsAreRefused() async throws {
        let fixture = try await Fixture.make()
        let (evil, honest) = (try HostileOrigin(), try HostileOrigin())
        defer { fixture.a.remove() }
        try await evil.start()
        try await honest.start()
        evil.serve("/users/evil", json: evil.actor("evil"))
        honest.serve("/users/bob", json: honest.actor("bob"))
        let (evilId, bobId) = ("\(evil.base)/users/evil", "\(honest.base)/users/bob")
        let postURI = fixture.post.uri

        // Evil's boost claims an id of the honest server.
        let boost = Self.activity("Announce", id: "\(bobId)/statuses/1/activity", actor: evilId, object: postURI)
        #expect(try await evil.deliver(boost, to: fixture.a, keyId: evilId + "#main-key") == 403)
        // Evil undoes the honest server's predictable Like id before it is sent.
        let likeId = "\(bobId)#likes/1"
        let undo = Self.activity("Undo", id: likeId, actor: evilId, object: ["id": "\(evilId)#likes/9", "type": "Like", "actor": evilId, "object": postURI])
        #expect(try await evil.deliver(undo, to: fixture.a, keyId: evilId + "#main-key") == 403)
        #expect(try fixture.a.read { try InboxItem.fetchCount($0) } == 0)

        // The real Like with that id is accepted and queued.
        let like = Self.activity("Like", id: likeId, actor: bobId, object: postURI)
        #expect(try await honest.deliver(like, to: fixture.a, keyId: bobId + "#main-key") == 202)
        #expect(try fixture.a.read { try InboxItem.filter(Column("activity_id") == likeId).fetchCount($0) } == 1)
        let seen = try fixture.a.read { try SeenActivity.filter(Column("uri") == likeId).fetchAll($0) }
        #expect(seen.map(\.origin) == [honest.domain], "de-duplication is recorded against the sender's origin")
        await InboxWorker(node: fixture.a.node).processDue()
        #expect(try fixture.a.read { try Like.filter(Column("post_id") == fixture.post.id).fetchCount($0) } == 1)
        await evil.stop()
        await honest.stop()
        await fixture.a.stop()
    }

    @Test("an id-less Follow sent five times is queued once; over-long ids are refused")
    func idlessReplayAndLongIds() async throws {
        let fixture = try await Fixture.make()
        let evil = try HostileOrigin()
        defer { fixture.a.remove() }
        try await evil.start()
        evil.serve("/users/evil", json: evil.actor("evil"))
        let evilId = "\(evil.base)/users/evil"
        let follow = Self.activity("Follow", id: nil, actor: evilId, object: fixture.alice.uri)
        let body = Array(try JSONSerialization.data(withJSONObject: follow, options: [.sortedKeys, .withoutEscapingSlashes]))
        for _ in 0..<5 { #expect(try await evil.deliver(body: body, to: fixture.a, keyId: evilId + "#main-key") == 202) }
        #expect(try fixture.a.read { try InboxItem.fetchCount($0) } == 1, "a replayed id-less activity is queued once")
        await InboxWorker(node: fixture.a.node).processDue()
        #expect(try fixture.a.read { try Delivery.fetchCount($0) } == 1, "one Accept answers it")

        let long = Self.activity("Like", id: "\(evilId)/likes/" + String(repeating: "x", count: 2100), actor: evilId, object: fixture.post.uri)
        #expect(try await evil.deliver(long, to: fixture.a, keyId: evilId + "#main-key") == 400)
        await evil.stop()
        await fixture.a.stop()
    }

    @Test("seen activity ids older than the retention are pruned")
    func seenActivitiesArePruned() async throws {
        let a = try NetworkNode(name: "a")
        defer { a.remove() }
        let now = Date()
        try await a.node.database.writeSQL { db in
            try SeenActivity(origin: "old.example", uri: "https://old.example/1", type: "Like", outcome: "processed",
                             seenAt: now.addingTimeInterval(-SeenActivityPruner.retention - 60)).insert(db)
            try SeenActivity(origin: "new.example", uri: "https://new.example/1", type: "Like", outcome: "processed",
                             seenAt: now.addingTimeInterval(-60)).insert(db)
        }
        #expect(await SeenActivityPruner(node: a.node).prune(now: now) == 1)
        #expect(try a.read { try SeenActivity.fetchAll($0).map(\.uri) } == ["https://new.example/1"])
    }
}
