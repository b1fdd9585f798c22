@testable import Core
import Foundation
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// Following hashtags: the `Tag` entity's `following`, `/api/v1/followed_tags`, and tagged
/// public posts entering the follower's home timeline.
@Suite("Client API: followed hashtags")
struct FollowedTagsTests {
    @Test("follow and unfollow answer the Tag; followed_tags pages; a bad name is 404")
    func followAndList() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        let (_, readOnly) = try await t.user("bob", scopes: "read")
        try await t.withClient { client in
            let followed = try await client.api(.post, "/api/v1/tags/Harbour/follow", token: token)
            #expect(followed.status == .ok)
            #expect(try followed.entity(APITag.self).following == true)
            #expect(try followed.entity(APITag.self).name == "harbour")
            _ = try await client.api(.post, "/api/v1/tags/sunset/follow", token: token)
            #expect(try await client.api(.get, "/api/v1/tags/harbour", token: token).entity(APITag.self).following == true)
            #expect(try await client.api(.get, "/api/v1/tags/harbour", token: readOnly).entity(APITag.self).following == false)

            let page = try await client.api(.get, "/api/v1/followed_tags?limit=1", token: token)
            #expect(try page.entity([APITag].self).map(\.name) == ["sunset"])
            #expect(page.headers[.link]?.contains("rel=\"next\"") == true)
            let all = try await client.api(.get, "/api/v1/followed_tags", token: token).entity([APITag].self)
            #expect(all.map(\.name) == ["sunset", "harbour"])
            #expect(all.allSatisfy { $0.following == true && $0.history?.count == 7 })

            let unfollowed = try await client.api(.post, "/api/v1/tags/harbour/unfollow", token: token)
            #expect(try unfollowed.entity(APITag.self).following == false)
            #expect(try await client.api(.get, "/api/v1/followed_tags", token: token).entity([APITag].self).map(\.name) == ["sunset"])
            #expect(try await client.api(.post, "/api/v1/tags/no%20tag/follow", token: token).status == .notFound)
            #expect(try await client.api(.post, "/api/v1/tags/sunset/follow", token: readOnly).status == .forbidden)
            #expect(try await client.api(.post, "/api/v1/tags/sunset/follow").status == .unauthorized)
        }
    }

    @Test("a public post with a followed tag enters home once; blocked authors and unlisted posts do not")
    func homeTimeline() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (bob, bobToken) = try await t.user("bob")
        let (carol, carolToken) = try await t.user("carol")
        try await t.node.interactions.follow(carol, by: alice)
        try await t.withClient { client in
            _ = try await client.api(.post, "/api/v1/tags/harbour/follow", token: aliceToken)
            let tagged = try await StatusFixtures.post(client, token: bobToken, "Boats at dawn #harbour")
            _ = try await StatusFixtures.post(client, token: bobToken, "Quiet #harbour", visibility: "unlisted")
            _ = try await StatusFixtures.post(client, token: bobToken, "No tag here")
            let both = try await StatusFixtures.post(client, token: carolToken, "Followed and tagged #Harbour")
            let remoteAuthor = try await StatusFixtures.remoteAccount("dana", in: t.node)
            let remote = try await StatusFixtures.remotePost(by: remoteAuthor, text: "From afar #harbour", hashtags: ["harbour"], in: t.node)
            let home = StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/home", token: aliceToken))
            #expect(home == [String(remote.id), both, tagged])

            _ = try await client.api(.post, "/api/v1/accounts/\(bob.id)/block", token: aliceToken)
            _ = try await StatusFixtures.post(client, token: bobToken, "Blocked #harbour")
            let after = StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/home", token: aliceToken))
            #expect(after == [String(remote.id), both])
            _ = alice
        }
    }

    @Test("a silenced author's tagged post reaches only tag followers who follow the author")
    func silencedAuthor() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, aliceToken) = try await t.user("alice")
        let (carol, carolToken) = try await t.user("carol")
        let (bob, bobToken) = try await t.user("bob")
        try await t.node.interactions.follow(bob, by: carol)
        try await t.node.database.write { db in
            var measures = try db.moderation.measures(of: bob.id)
            measures.silencedAt = Date()
            try db.moderation.save(measures)
        }
        try await t.withClient { client in
            for token in [aliceToken, carolToken] { _ = try await client.api(.post, "/api/v1/tags/harbour/follow", token: token) }
            let post = try await StatusFixtures.post(client, token: bobToken, "Limited #harbour")
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/home", token: aliceToken)).isEmpty)
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/home", token: carolToken)) == [post])
            _ = carol
        }
    }
}
