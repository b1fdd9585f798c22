@testable import Core
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// Pinned posts over HTTP: pin, unpin, `pinned`, the profile's pinned list, the limit, and the
/// `featured` collection with the `Add`/`Remove` sent to remote followers.
@Suite("Client API: pinned posts")
struct PinsTests {
    @Test("pin answers pinned: true for the author only; pinned=true lists pins newest first; unpin removes it")
    func pinAndList() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (_, bobToken) = try await t.user("bob")
        try await t.withLiveClient { client async throws in
            let older = try await StatusFixtures.post(client, token: aliceToken, "Old harbour")
            let newer = try await StatusFixtures.post(client, token: aliceToken, "New harbour", visibility: "unlisted")
            _ = try await StatusFixtures.post(client, token: aliceToken, "Not pinned")
            let pinned = try await client.api(.post, "/api/v1/statuses/\(newer)/pin", token: aliceToken)
            #expect(pinned.status == .ok)
            #expect(pinned.json?["pinned"] as? Bool == true)
            #expect(try await client.api(.post, "/api/v1/statuses/\(older)/pin", token: aliceToken).json?["pinned"] as? Bool == true)
            // Pinning twice changes nothing.
            #expect(try await client.api(.post, "/api/v1/statuses/\(older)/pin", token: aliceToken).status == .ok)

            let path = "/api/v1/accounts/\(alice.id)/statuses?pinned=true"
            #expect(StatusFixtures.ids(try await client.api(.get, path)) == [older, newer])
            #expect(StatusFixtures.ids(try await client.api(.get, path + "&max_id=\(older)")).isEmpty)
            // Only the author is told whether a post is pinned, as Mastodon.
            let seenByBob = try await client.api(.get, "/api/v1/statuses/\(older)", token: bobToken)
            #expect(seenByBob.json?.keys.contains("pinned") == false)
            let own = try await client.api(.get, "/api/v1/accounts/\(alice.id)/statuses", token: aliceToken)
            #expect((own.jsonArray ?? []).map { $0["pinned"] as? Bool } == [false, true, true])

            let unpinned = try await client.api(.post, "/api/v1/statuses/\(older)/unpin", token: aliceToken)
            #expect(unpinned.json?["pinned"] as? Bool == false)
            #expect(StatusFixtures.ids(try await client.api(.get, path)) == [newer])
        }
    }

    @Test("pinning refuses others' posts, boosts, followers-only and direct posts, and a sixth pin, with 422")
    func refusals() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, aliceToken) = try await t.user("alice")
        let (_, bobToken) = try await t.user("bob")
        let (_, readOnly) = try await t.user("carol", scopes: "read")
        try await t.withLiveClient { client async throws in
            let bobs = try await StatusFixtures.post(client, token: bobToken, "Bob's boat")
            #expect(try await client.api(.post, "/api/v1/statuses/\(bobs)/pin", token: aliceToken).status == .unprocessableContent)
            let boost = try #require(try await client.api(.post, "/api/v1/statuses/\(bobs)/reblog", token: aliceToken).json?["id"] as? String)
            #expect(try await client.api(.post, "/api/v1/statuses/\(boost)/pin", token: aliceToken).status == .unprocessableContent)
            for visibility in ["private", "direct"] {
                let post = try await StatusFixtures.post(client, token: aliceToken, "Quiet \(visibility)", visibility: visibility)
                #expect(try await client.api(.post, "/api/v1/statuses/\(post)/pin", token: aliceToken).status == .unprocessableContent)
            }
            #expect(try await client.api(.post, "/api/v1/statuses/\(bobs)/pin", token: readOnly).status == .forbidden)
            #expect(try await client.api(.post, "/api/v1/statuses/9999/pin", token: aliceToken).status == .notFound)

            for n in 1...PinService.maxPins {
                let post = try await StatusFixtures.post(client, token: aliceToken, "Pin \(n)")
                #expect(try await client.api(.post, "/api/v1/statuses/\(post)/pin", token: aliceToken).status == .ok)
            }
            let sixth = try await StatusFixtures.post(client, token: aliceToken, "One too many")
            let refused = try await client.api(.post, "/api/v1/statuses/\(sixth)/pin", token: aliceToken)
            #expect(refused.status == .unprocessableContent)
            #expect((refused.json?["error"] as? String)?.contains("maximum") == true)
            let instance = try await client.api(.get, "/api/v2/instance")
            let accounts = (instance.json?["configuration"] as? [String: Any])?["accounts"] as? [String: Any]
            #expect(accounts?["max_pinned_statuses"] as? Int == PinService.maxPins)
        }
    }

    @Test("the actor names its featured collection, which serves the pinned Notes; pins send Add and Remove to followers")
    func featuredCollection() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let remote = try await StatusFixtures.remoteAccount("dana", domain: "photos.example", in: t.node)
        try await t.node.database.write { db in
            _ = try db.follows.insert(Follow(accountId: remote.id, targetAccountId: alice.id, uri: "https://photos.example/f/1", state: .accepted))
        }
        try await t.withLiveClient { client async throws in
            let post = try await StatusFixtures.post(client, token: aliceToken, "Pinned harbour")
            _ = try await client.api(.post, "/api/v1/statuses/\(post)/pin", token: aliceToken)
            let activityJSON: HTTPFields = [.accept: "application/activity+json"]
            let actor = try await client.api(.get, "/users/alice", headers: activityJSON)
            let featured = try #require(actor.json?["featured"] as? String)
            #expect(featured == "http://social.test/users/alice/collections/featured")
            let contextTerms = (actor.json?["@context"] as? [Any])?.compactMap { $0 as? [String: Any] }.first
            #expect((contextTerms?["featured"] as? [String: Any])?["@id"] as? String == "toot:featured")

            let collection = try await client.api(.get, "/users/alice/collections/featured", headers: activityJSON)
            #expect(collection.json?["type"] as? String == "OrderedCollection")
            #expect(collection.json?["totalItems"] as? Int == 1)
            let items = try #require(collection.json?["orderedItems"] as? [[String: Any]])
            #expect(items.first?["type"] as? String == "Note")
            #expect(items.first?["id"] as? String == "http://social.test/users/alice/statuses/\(post)")
            _ = try await client.api(.post, "/api/v1/statuses/\(post)/unpin", token: aliceToken)
            #expect(try await client.api(.get, "/users/alice/collections/featured", headers: activityJSON).json?["totalItems"] as? Int == 0)
            #expect(try await client.api(.get, "/users/nobody/collections/featured", headers: activityJSON).status == .notFound)

            // The outbox keeps what was queued for the follower's server (the federation suite
            // checks that it arrives).
            let payloads = try StatusFixtures.read(t.node) { try OutboxActivity.order(Column("id")).fetchAll($0) }
                .compactMap { try JSONSerialization.jsonObject(with: $0.payload) as? [String: Any] }
            let shapes = payloads.filter { ["Add", "Remove"].contains($0["type"] as? String) }.map {
                [$0["type"] as? String, $0["actor"] as? String, $0["object"] as? String, $0["target"] as? String]
            }
            let note = "http://social.test/users/alice/statuses/\(post)"
            #expect(shapes == [["Add", alice.uri, note, featured], ["Remove", alice.uri, note, featured]])
        }
    }
}
