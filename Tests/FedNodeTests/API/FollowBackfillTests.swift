@testable import Core
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// Following someone shows what they already posted, not only what they post next.
@Suite("Home timeline backfill on follow")
struct FollowBackfillTests {
    @Test("a new follower sees the posts written before the follow; unfollow and re-follow show them again")
    func followShowsEarlierPosts() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (_, bobToken) = try await t.user("bob")
        _ = try await t.user("carol")
        try await t.withClient { client async throws in
            let open = try await StatusFixtures.post(client, token: aliceToken, "open")
            let unlisted = try await StatusFixtures.post(client, token: aliceToken, "unlisted", visibility: "unlisted")
            let followersOnly = try await StatusFixtures.post(client, token: aliceToken, "followers", visibility: "private")
            _ = try await StatusFixtures.post(client, token: aliceToken, "@carol just us", visibility: "direct")
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/home", token: bobToken)).isEmpty)

            let follow = try await client.api(.post, "/api/v1/accounts/\(alice.id)/follow", token: bobToken)
            #expect(follow.json?["following"] as? Bool == true)
            let home = try await client.api(.get, "/api/v1/timelines/home", token: bobToken)
            #expect(StatusFixtures.ids(home) == [followersOnly, unlisted, open], "the direct post to carol stays hers")

            _ = try await client.api(.post, "/api/v1/accounts/\(alice.id)/unfollow", token: bobToken)
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/home", token: bobToken)).isEmpty)
            _ = try await client.api(.post, "/api/v1/accounts/\(alice.id)/follow", token: bobToken)
            let again = try await client.api(.get, "/api/v1/timelines/home", token: bobToken)
            #expect(StatusFixtures.ids(again) == [followersOnly, unlisted, open])
        }
    }

    @Test("approving a follow request brings the account's posts; a pending request brings none")
    func approvedRequestShowsEarlierPosts() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (bob, bobToken) = try await t.user("bob")
        try await t.withClient { client async throws in
            let first = try await StatusFixtures.post(client, token: aliceToken, "before the request")
            let locked = try await client.api(.patch, "/api/v1/accounts/update_credentials", token: aliceToken, json: ["locked": true])
            #expect(locked.json?["locked"] as? Bool == true)
            let requested = try await client.api(.post, "/api/v1/accounts/\(alice.id)/follow", token: bobToken)
            #expect(requested.json?["requested"] as? Bool == true)
            let second = try await StatusFixtures.post(client, token: aliceToken, "while pending", visibility: "private")
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/home", token: bobToken)).isEmpty)

            let authorized = try await client.api(.post, "/api/v1/follow_requests/\(bob.id)/authorize", token: aliceToken)
            #expect(authorized.status == .ok)
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/home", token: bobToken)) == [second, first])
        }
    }

    @Test("the backfill is bounded to the account's newest posts")
    func boundedBackfill() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, _) = try await t.user("alice")
        let (bob, _) = try await t.user("bob")
        var posts: [Post] = []
        for n in 1...(Timelines.backfillLimit + 5) { posts.append(try await t.node.posts.create(.init(text: "photo \(n)"), by: alice)) }
        try await t.node.interactions.follow(alice, by: bob)
        let home = try await t.node.database.read { try Set($0.timelines.homePostIds(of: bob.id)) }
        #expect(home == Set(posts.suffix(Timelines.backfillLimit).map(\.id)))
    }
}
