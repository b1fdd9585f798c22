@testable import Core
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

@Suite("Timelines API")
struct TimelinesTests {
    @Test("home shows followed and own posts newest first, paginated with Link")
    func home() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (bob, bobToken) = try await t.user("bob")
        let (_, carolToken) = try await t.user("carol")
        let (_, writeOnly) = try await t.user("dave", scopes: "write")
        try await t.node.interactions.follow(alice, by: bob)
        try await t.withClient { client async throws in
            var posts: [String] = []
            for n in 1...3 { posts.append(try await StatusFixtures.post(client, token: aliceToken, "post \(n)")) }
            let hidden = try await StatusFixtures.post(client, token: aliceToken, "followers only", visibility: "private")
            _ = try await StatusFixtures.post(client, token: carolToken, "not followed")
            let own = try await StatusFixtures.post(client, token: bobToken, "my own")
            let all = try await client.api(.get, "/api/v1/timelines/home", token: bobToken)
            #expect(all.status == .ok)
            #expect(StatusFixtures.ids(all) == [own, hidden, posts[2], posts[1], posts[0]])

            let first = try await client.api(.get, "/api/v1/timelines/home?limit=2", token: bobToken)
            #expect(StatusFixtures.ids(first) == [own, hidden])
            #expect(first.headers[.link] == "<http://social.test/api/v1/timelines/home?limit=2&max_id=\(hidden)>; rel=\"next\", "
                + "<http://social.test/api/v1/timelines/home?limit=2&min_id=\(own)>; rel=\"prev\"")
            let next = try await client.api(.get, "/api/v1/timelines/home?limit=2&max_id=\(hidden)", token: bobToken)
            #expect(StatusFixtures.ids(next) == [posts[2], posts[1]])
            let newer = try await client.api(.get, "/api/v1/timelines/home?limit=2&min_id=\(posts[0])", token: bobToken)
            #expect(StatusFixtures.ids(newer) == [posts[2], posts[1]])
            let since = try await client.api(.get, "/api/v1/timelines/home?limit=2&since_id=\(posts[0])", token: bobToken)
            #expect(StatusFixtures.ids(since) == [own, hidden])
            let empty = try await client.api(.get, "/api/v1/timelines/home?min_id=\(own)", token: bobToken)
            #expect(StatusFixtures.ids(empty).isEmpty)
            #expect(empty.headers[.link] == nil)

            #expect(try await client.api(.get, "/api/v1/timelines/home").status == .unauthorized)
            #expect(try await client.api(.get, "/api/v1/timelines/home", token: writeOnly).status == .forbidden)
            // After a block nothing of the blocker is left.
            try await t.node.interactions.block(bob, by: alice)
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/home", token: bobToken)) == [own])
        }
    }

    @Test("public shows public posts only, without boosts or comments, filtered by origin and media")
    func publicTimeline() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, aliceToken) = try await t.user("alice")
        let (_, bobToken) = try await t.user("bob")
        let remote = try await StatusFixtures.remoteAccount("erin", in: t.node)
        try await t.withClient { client async throws in
            let open = try await StatusFixtures.post(client, token: aliceToken, "open")
            _ = try await StatusFixtures.post(client, token: aliceToken, "unlisted", visibility: "unlisted")
            _ = try await StatusFixtures.post(client, token: aliceToken, "followers", visibility: "private")
            _ = try await StatusFixtures.post(client, token: bobToken, "a comment", extra: ["in_reply_to_id": open])
            let thread = try await StatusFixtures.post(client, token: aliceToken, "my own thread", extra: ["in_reply_to_id": open])
            _ = try await client.api(.post, "/api/v1/statuses/\(open)/reblog", token: bobToken)
            let media = try await StatusFixtures.uploadedMedia(client, token: bobToken)
            let photo = try await StatusFixtures.post(client, token: bobToken, "photo", extra: ["media_ids": [media]])
            let far = String(try await StatusFixtures.remotePost(by: remote, text: "from afar", in: t.node).id)

            let all = try await client.api(.get, "/api/v1/timelines/public")
            #expect(all.status == .ok)
            #expect(StatusFixtures.ids(all) == [far, photo, thread, open])
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/public?local=true")) == [photo, thread, open])
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/public?remote=true")) == [far])
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/public?only_media=true")) == [photo])
            let page = try await client.api(.get, "/api/v1/timelines/public?local=true&limit=1", token: aliceToken)
            #expect(StatusFixtures.ids(page) == [photo])
            #expect(page.headers[.link]?.contains("/api/v1/timelines/public?local=true&limit=1&max_id=\(photo)") == true
                || page.headers[.link]?.contains("/api/v1/timelines/public?limit=1&local=true&max_id=\(photo)") == true)
            #expect(try await client.api(.get, "/api/v1/timelines/public", token: "bogus").status == .unauthorized)
        }
    }

    @Test("tag timelines match any case and keep to public posts")
    func tag() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, aliceToken) = try await t.user("alice")
        let remote = try await StatusFixtures.remoteAccount("erin", in: t.node)
        try await t.withClient { client async throws in
            let first = try await StatusFixtures.post(client, token: aliceToken, "Morning #Sunrise")
            _ = try await StatusFixtures.post(client, token: aliceToken, "hidden #sunrise", visibility: "private")
            _ = try await StatusFixtures.post(client, token: aliceToken, "quiet #sunrise", visibility: "unlisted")
            _ = try await StatusFixtures.post(client, token: aliceToken, "other #sunset")
            let media = try await StatusFixtures.uploadedMedia(client, token: aliceToken)
            let photo = try await StatusFixtures.post(client, token: aliceToken, "#SUNRISE photo", extra: ["media_ids": [media]])
            let far = String(try await StatusFixtures.remotePost(by: remote, text: "dawn", hashtags: ["sunrise"], in: t.node).id)

            let r = try await client.api(.get, "/api/v1/timelines/tag/sunrise")
            #expect(r.status == .ok)
            #expect(StatusFixtures.ids(r) == [far, photo, first])
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/tag/SunRise?local=true")) == [photo, first])
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/tag/sunrise?only_media=1")) == [photo])
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/tag/nothing")).isEmpty)
            let page = try await client.api(.get, "/api/v1/timelines/tag/sunrise?limit=2", token: aliceToken)
            #expect(StatusFixtures.ids(page) == [far, photo])
            #expect(page.headers[.link]?.contains("/api/v1/timelines/tag/sunrise?limit=2&max_id=\(photo)") == true)
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/tag/sunrise?max_id=\(photo)")) == [first])
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/tag/sunrise?min_id=\(first)&limit=1")) == [photo])
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/tag/sunrise?since_id=\(first)")) == [far, photo])
        }
    }

    @Test("a blocked account sees nothing of the blocker on any timeline")
    func blocks() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (bob, bobToken) = try await t.user("bob")
        let (carol, carolToken) = try await t.user("carol")
        try await t.node.interactions.follow(alice, by: bob)
        try await t.node.interactions.follow(carol, by: bob)
        try await t.withClient { client async throws in
            let post = try await StatusFixtures.post(client, token: aliceToken, "tagged #shared")
            let others = try await StatusFixtures.post(client, token: carolToken, "also #shared")
            _ = try await client.api(.post, "/api/v1/statuses/\(post)/reblog", token: carolToken)
            try await t.node.interactions.block(bob, by: alice)
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/public", token: bobToken)) == [others])
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/tag/shared", token: bobToken)) == [others])
            // carol's boost of alice's post is in bob's fan-out rows, but the boosted post stays hidden.
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/home", token: bobToken)) == [others])
            #expect(try await client.api(.get, "/api/v1/statuses/\(post)", token: bobToken).status == .notFound)
            #expect(try await client.api(.get, "/api/v1/statuses/\(post)/context", token: bobToken).status == .notFound)
            // Anonymous readers still see it.
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/tag/shared")).contains(post))
        }
    }

    @Test("a boost of a blocker's post stays out of the blocked reader's home timeline")
    func boostOfBlocker() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (bob, bobToken) = try await t.user("bob")
        let (carol, carolToken) = try await t.user("carol")
        try await t.node.interactions.follow(carol, by: bob)
        try await t.node.interactions.block(bob, by: alice)
        try await t.withClient { client async throws in
            let post = try await StatusFixtures.post(client, token: aliceToken, "not for bob")
            let boost = try #require(try await client.api(.post, "/api/v1/statuses/\(post)/reblog", token: carolToken).json?["id"] as? String)
            let own = try await StatusFixtures.post(client, token: carolToken, "carol's own")
            let home = try await client.api(.get, "/api/v1/timelines/home", token: bobToken)
            #expect(StatusFixtures.ids(home) == [own])
            #expect(try await client.api(.get, "/api/v1/statuses/\(boost)", token: bobToken).status == .notFound)
        }
    }
}
