@testable import Core
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

@Suite("Status favourites and boosts API")
struct StatusActionsTests {
    @Test("favourite and unfavourite answer the status and show in favourited_by and /favourites")
    func favourites() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (bob, bobToken) = try await t.user("bob")
        let (_, readOnly) = try await t.user("carol", scopes: "read")
        try await t.withClient { client async throws in
            let id = try await StatusFixtures.post(client, token: aliceToken, "like me")
            let liked = try await client.api(.post, "/api/v1/statuses/\(id)/favourite", token: bobToken)
            #expect(liked.status == .ok)
            #expect(liked.json?["favourited"] as? Bool == true)
            #expect(liked.json?["favourites_count"] as? Int == 1)
            // Twice is once.
            #expect(try await client.api(.post, "/api/v1/statuses/\(id)/favourite", token: bobToken).json?["favourites_count"] as? Int == 1)
            let notified = try StatusFixtures.read(t.node) {
                try AccountNotification.filter(Column("account_id") == alice.id && Column("type") == "favourite").fetchCount($0)
            }
            #expect(notified == 1)
            let by = try await client.api(.get, "/api/v1/statuses/\(id)/favourited_by")
            #expect(by.status == .ok)
            #expect(StatusFixtures.ids(by) == [String(bob.id)])
            #expect(by.headers[.link]?.contains("rel=\"next\"") == true)
            let mine = try await client.api(.get, "/api/v1/favourites", token: bobToken)
            #expect(StatusFixtures.ids(mine) == [id])
            let likeId = try StatusFixtures.read(t.node) { try Like.fetchOne($0)!.id }
            #expect(mine.headers[.link] == "<http://social.test/api/v1/favourites?max_id=\(likeId)>; rel=\"next\", <http://social.test/api/v1/favourites?min_id=\(likeId)>; rel=\"prev\"")
            #expect(try await client.api(.get, "/api/v1/favourites", token: readOnly).status == .ok)
            #expect(try await client.api(.get, "/api/v1/favourites").status == .unauthorized)
            #expect(try await client.api(.post, "/api/v1/statuses/\(id)/favourite", token: readOnly).status == .forbidden)
            #expect(try await client.api(.post, "/api/v1/statuses/\(id)/favourite").status == .unauthorized)
            #expect(try await client.api(.post, "/api/v1/statuses/777/favourite", token: bobToken).status == .notFound)

            let unliked = try await client.api(.post, "/api/v1/statuses/\(id)/unfavourite", token: bobToken)
            #expect(unliked.status == .ok)
            #expect(unliked.json?["favourited"] as? Bool == false)
            #expect(unliked.json?["favourites_count"] as? Int == 0)
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/favourites", token: bobToken)).isEmpty)
            #expect(try await client.api(.get, "/api/v1/favourites", token: bobToken).headers[.link] == nil)
        }
    }

    @Test("favourites paginate by like with Link")
    func favouritesPages() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, aliceToken) = try await t.user("alice")
        let (_, bobToken) = try await t.user("bob")
        try await t.withClient { client async throws in
            var posts: [String] = []
            for n in 1...3 { posts.append(try await StatusFixtures.post(client, token: aliceToken, "post \(n)")) }
            // Liked in the order 2, 3, 1: the list follows the likes, not the posts.
            for index in [1, 2, 0] { _ = try await client.api(.post, "/api/v1/statuses/\(posts[index])/favourite", token: bobToken) }
            let first = try await client.api(.get, "/api/v1/favourites?limit=2", token: bobToken)
            #expect(StatusFixtures.ids(first) == [posts[0], posts[2]])
            let link = try #require(first.headers[.link])
            let next = try #require(link.split(separator: ";").first.map { String($0.dropFirst().dropLast()) })
            let path = String(next.dropFirst("http://social.test".count))
            #expect(path.contains("limit=2"))
            #expect(StatusFixtures.ids(try await client.api(.get, path, token: bobToken)) == [posts[1]])
        }
    }

    @Test("a followers-only or blocked post cannot be liked or listed")
    func hiddenPosts() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (bob, bobToken) = try await t.user("bob")
        try await t.withClient { client async throws in
            let hidden = try await StatusFixtures.post(client, token: aliceToken, "followers only", visibility: "private")
            #expect(try await client.api(.post, "/api/v1/statuses/\(hidden)/favourite", token: bobToken).status == .notFound)
            #expect(try await client.api(.get, "/api/v1/statuses/\(hidden)/favourited_by").status == .notFound)
            #expect(try await client.api(.get, "/api/v1/statuses/\(hidden)/reblogged_by").status == .notFound)
            let open = try await StatusFixtures.post(client, token: aliceToken, "open")
            _ = try await client.api(.post, "/api/v1/statuses/\(open)/favourite", token: bobToken)
            try await t.node.interactions.block(bob, by: alice)
            #expect(try await client.api(.post, "/api/v1/statuses/\(open)/reblog", token: bobToken).status == .notFound)
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/statuses/\(open)/favourited_by", token: aliceToken)).isEmpty)
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/favourites", token: bobToken)).isEmpty)
        }
    }

    @Test("a boost reaches followers' home timelines, notifies the author, and unboost removes it")
    func reblog() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (bob, bobToken) = try await t.user("bob")
        let (carol, carolToken) = try await t.user("carol")
        let (_, readOnly) = try await t.user("dave", scopes: "read")
        try await t.node.interactions.follow(bob, by: carol)
        try await t.withClient { client async throws in
            let id = try await StatusFixtures.post(client, token: aliceToken, "boost me")
            let r = try await client.api(.post, "/api/v1/statuses/\(id)/reblog", token: bobToken)
            #expect(r.status == .ok)
            let boost = try r.entity(APIStatus.self)
            #expect(boost.reblog?.value.id == id)
            #expect(boost.reblog?.value.reblogged == true)
            #expect(boost.reblog?.value.reblogsCount == 1)
            #expect(boost.account.id == String(bob.id))
            #expect(boost.uri.hasPrefix("http://social.test/users/bob/activities/"))
            let again = try await client.api(.post, "/api/v1/statuses/\(id)/reblog", token: bobToken)
            #expect(again.json?["id"] as? String == boost.id)
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/home", token: carolToken)) == [boost.id])
            let by = try await client.api(.get, "/api/v1/statuses/\(id)/reblogged_by")
            #expect(StatusFixtures.ids(by) == [String(bob.id)])
            #expect(by.headers[.link]?.contains("max_id=\(boost.id)") == true)
            let notified = try StatusFixtures.read(t.node) {
                try AccountNotification.filter(Column("account_id") == alice.id && Column("type") == "reblog").fetchCount($0)
            }
            #expect(notified == 1)
            // Boosts stay off the public timeline.
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/public")) == [id])

            let undone = try await client.api(.post, "/api/v1/statuses/\(id)/unreblog", token: bobToken)
            #expect(undone.status == .ok)
            #expect(undone.json?["id"] as? String == id)
            #expect(undone.json?["reblogged"] as? Bool == false)
            #expect(undone.json?["reblogs_count"] as? Int == 0)
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/home", token: carolToken)).isEmpty)
            #expect(try StatusFixtures.read(t.node) { try AccountNotification.filter(Column("type") == "reblog").fetchCount($0) } == 0)
            #expect(try await client.api(.post, "/api/v1/statuses/\(id)/unreblog", token: bobToken).status == .ok)

            #expect(try await client.api(.post, "/api/v1/statuses/\(id)/reblog").status == .unauthorized)
            #expect(try await client.api(.post, "/api/v1/statuses/\(id)/reblog", token: readOnly).status == .forbidden)
            #expect(try await client.api(.post, "/api/v1/statuses/555/reblog", token: bobToken).status == .notFound)
            let direct = try await client.api(.post, "/api/v1/statuses/\(id)/reblog", token: bobToken, json: ["visibility": "direct"])
            #expect(direct.status == .unprocessableContent)
        }
    }

    @Test("followers-only posts cannot be boosted, even by followers")
    func reblogPrivate() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (bob, bobToken) = try await t.user("bob")
        try await t.node.interactions.follow(alice, by: bob)
        try await t.withClient { client async throws in
            let hidden = try await StatusFixtures.post(client, token: aliceToken, "followers only", visibility: "private")
            let r = try await client.api(.post, "/api/v1/statuses/\(hidden)/reblog", token: bobToken)
            #expect(r.status == .forbidden)
            #expect(r.json?["error"] as? String == "This action is not allowed")
            #expect(try StatusFixtures.read(t.node) { try Post.filter(Column("reblog_of_id") != nil).fetchCount($0) } == 0)
        }
    }

    @Test("deleting one's boost through DELETE /:id takes the boost back")
    func deleteBoost() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, aliceToken) = try await t.user("alice")
        let (_, bobToken) = try await t.user("bob")
        try await t.withClient { client async throws in
            let id = try await StatusFixtures.post(client, token: aliceToken, "boost me")
            let boost = try #require(try await client.api(.post, "/api/v1/statuses/\(id)/reblog", token: bobToken).json?["id"] as? String)
            #expect(try await client.api(.delete, "/api/v1/statuses/\(boost)", token: aliceToken).status == .forbidden)
            #expect(try await client.api(.delete, "/api/v1/statuses/\(boost)", token: bobToken).status == .ok)
            #expect(try await client.api(.get, "/api/v1/statuses/\(boost)").status == .notFound)
            #expect(try await client.api(.get, "/api/v1/statuses/\(id)").status == .ok)
        }
    }

    @Test("a boost of a remote post sends Announce to the author, and Undo on unboost")
    func reblogDeliveries() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (bob, bobToken) = try await t.user("bob")
        let remote = try await StatusFixtures.remoteAccount("erin", in: t.node)
        let post = try await StatusFixtures.remotePost(by: remote, text: "from afar", in: t.node)
        try await t.withClient { client async throws in
            #expect(try await client.api(.post, "/api/v1/statuses/\(post.id)/reblog", token: bobToken, json: ["visibility": "unlisted"]).status == .ok)
            #expect(try await client.api(.post, "/api/v1/statuses/\(post.id)/unreblog", token: bobToken).status == .ok)
        }
        let activities = try StatusFixtures.read(t.node) { try OutboxActivity.filter(Column("account_id") == bob.id).order(Column("id")).fetchAll($0) }
        #expect(activities.map(\.type) == ["Undo"])
        let undo = try #require(activities.first)
        let json = try #require(try JSONSerialization.jsonObject(with: undo.payload) as? [String: Any])
        let inner = try #require(json["object"] as? [String: Any])
        #expect(inner["type"] as? String == "Announce")
        #expect(inner["object"] as? String == post.uri)
        #expect((inner["cc"] as? [String])?.contains("https://www.w3.org/ns/activitystreams#Public") == true)
        // The Announce was never sent (still queued when taken back); the Undo goes to the author's node.
        let queued = try StatusFixtures.read(t.node) { try Delivery.fetchAll($0) }
        #expect(queued.map(\.activityUri) == [undo.uri])
        #expect(queued.map(\.inboxUrl) == ["https://remote.example/inbox"])
    }
}
