@testable import Core
import Foundation
import GRDB
import Storage
import Testing
@testable import FedNode

/// Pinned posts and edits across two real nodes: alice@A pins and edits, bob@B follows her.
@Suite("Pinned posts and edit history across nodes", .serialized)
struct FeaturedAndEditsFederationTests {
    @Test("a pin on A reaches B through Add (pinned=true on B), unpin through Remove; A serves the featured collection")
    func pinsFederate() async throws {
        let (a, b, alice, aliceOnB) = try await Self.followedAlice()
        defer { [a, b].forEach { $0.remove() } }
        let kept = try await a.node.posts.create(.init(text: "Pinned pier"), by: alice)
        let other = try await a.node.posts.create(.init(text: "Unpinned pier"), by: alice)
        try await eventually("alice's posts reach B") {
            try b.read { try Post.filter([kept.uri, other.uri].contains(Column("uri"))).fetchCount($0) } == 2
        }
        _ = try await PinService(node: a.node).pin(kept.id, by: alice)

        let pinnedPath = "http://\(b.domain)/api/v1/accounts/\(aliceOnB.id)/statuses?pinned=true"
        try await eventually("B lists the pinned post for alice") {
            try await Self.json(pinnedPath, on: b).compactMap { $0["uri"] as? String } == [kept.uri]
        }
        let collectionOnB = try b.node.database.readBlocking { try $0.pins.featuredCollection(of: aliceOnB.id) }
        #expect(collectionOnB == "http://\(a.domain)/users/alice/collections/featured")
        let featured = try await a.node.httpClient.execute(HTTPClientRequest(
            url: "http://\(a.domain)/users/alice/collections/featured", headers: [("Accept", "application/activity+json")]))
        let collection = try JSONSerialization.jsonObject(with: Data(featured.body)) as? [String: Any]
        #expect(collection?["totalItems"] as? Int == 1)
        #expect((collection?["orderedItems"] as? [[String: Any]])?.first?["id"] as? String == kept.uri)

        _ = try await PinService(node: a.node).unpin(kept.id, by: alice)
        try await eventually("B drops the pin") { try await Self.json(pinnedPath, on: b).isEmpty }
        for node in [a, b] { await node.stop() }
    }

    @Test("an edit on A reaches B as Update; B's history shows the original, then the edit")
    func editsFederate() async throws {
        let (a, b, alice, _) = try await Self.followedAlice()
        defer { [a, b].forEach { $0.remove() } }
        let post = try await a.node.posts.create(.init(text: "Low tide"), by: alice)
        try await eventually("alice's post reaches B") { try b.read { try Post.filter(Column("uri") == post.uri).fetchCount($0) } == 1 }
        let copy = try #require(try b.read { try Post.filter(Column("uri") == post.uri).fetchOne($0) })
        _ = try await a.node.posts.edit(post.id, text: "High tide", spoilerText: "Water", by: alice)

        let historyPath = "http://\(b.domain)/api/v1/statuses/\(copy.id)/history"
        try await eventually("B keeps both versions") { try await Self.json(historyPath, on: b).count == 2 }
        let versions = try await Self.json(historyPath, on: b)
        #expect((versions[0]["content"] as? String)?.contains("Low tide") == true)
        #expect((versions[1]["content"] as? String)?.contains("High tide") == true)
        #expect(versions.map { $0["spoiler_text"] as? String } == ["", "Water"])
        let status = try await b.node.httpClient.execute(HTTPClientRequest(url: "http://\(b.domain)/api/v1/statuses/\(copy.id)"))
        #expect((try JSONSerialization.jsonObject(with: Data(status.body)) as? [String: Any])?["edited_at"] is String)
        for node in [a, b] { await node.stop() }
    }

    /// Two started nodes where bob@B follows alice@A (accepted), with alice's account on B.
    private static func followedAlice() async throws -> (NetworkNode, NetworkNode, Account, Account) {
        let (a, b) = (try NetworkNode(name: "a"), try NetworkNode(name: "b"))
        for node in [a, b] { try await node.start() }
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let bob = try await b.node.accounts.create(username: "bob", email: "bob@b.test", password: "bob password")
        let aliceOnB = try await b.node.remoteAccounts.resolve(username: "alice", domain: a.domain)
        try await b.node.interactions.follow(aliceOnB, by: bob)
        try await eventually("A records bob as alice's follower") { try a.read { try Account.followersCount(of: alice.id, in: $0) } == 1 }
        return (a, b, alice, aliceOnB)
    }

    /// A JSON array read anonymously from a node's client API.
    private static func json(_ url: String, on node: NetworkNode) async throws -> [[String: Any]] {
        let response = try await node.node.httpClient.execute(HTTPClientRequest(url: url))
        return (try JSONSerialization.jsonObject(with: Data(response.body)) as? [[String: Any]]) ?? []
    }
}
