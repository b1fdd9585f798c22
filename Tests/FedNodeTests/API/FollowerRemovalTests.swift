@testable import Core
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// `POST /api/v1/accounts/:id/remove_from_followers`: the follower goes, a remote one's server
/// is told with `Reject` of its original `Follow`.
@Suite("Client API: remove from followers")
struct FollowerRemovalTests {
    @Test("removing a remote follower answers the relationship and sends Reject of its Follow id to its inbox")
    func remoteFollower() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, token) = try await t.user("alice")
        let dana = try await AccountsTests.remoteAccount("dana", domain: "photos.example", in: t)
        try await DomainBlocksTests.accepted(follower: dana, target: alice, in: t, uri: "https://photos.example/activities/follow-1")
        try await t.withClient { client async throws in
            let removed = try await client.api(.post, "/api/v1/accounts/\(dana.id)/remove_from_followers", token: token)
            #expect(removed.status == .ok)
            let relationship = try removed.entity(APIRelationship.self)
            #expect(relationship.id == String(dana.id) && !relationship.followedBy)
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/accounts/\(alice.id)/followers", token: token)).isEmpty)
        }
        let deliveries = try await t.node.database.readSQL { try Delivery.fetchAll($0) }
        #expect(deliveries.map(\.inboxUrl) == ["https://photos.example/inbox"])
        let reject = try #require(deliveries.first.flatMap { try? JSONSerialization.jsonObject(with: $0.payload) as? [String: Any] })
        #expect(reject["type"] as? String == "Reject" && reject["actor"] as? String == alice.uri)
        let follow = try #require(reject["object"] as? [String: Any])
        #expect(follow["id"] as? String == "https://photos.example/activities/follow-1" && follow["actor"] as? String == dana.uri)
    }

    @Test("removing a local follower ends its follow and takes the posts off its home; a non-follower changes nothing")
    func localFollower() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (bob, bobToken) = try await t.user("bob")
        let (carol, _) = try await t.user("carol")
        try await t.node.interactions.follow(alice, by: bob)
        let post = try await t.node.posts.create(.init(text: "Morning light"), by: alice)
        try await t.withClient { client async throws in
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/home", token: bobToken)) == [String(post.id)])
            let removed = try await client.api(.post, "/api/v1/accounts/\(bob.id)/remove_from_followers", token: aliceToken)
            #expect(try removed.entity(APIRelationship.self).followedBy == false)
            let seenByBob = try await client.api(.get, "/api/v1/accounts/relationships?id[]=\(alice.id)", token: bobToken)
            #expect(try seenByBob.entity([APIRelationship].self).first?.following == false)
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/home", token: bobToken)).isEmpty)
            let none = try await client.api(.post, "/api/v1/accounts/\(carol.id)/remove_from_followers", token: aliceToken)
            #expect(none.status == .ok)
            #expect(try none.entity(APIRelationship.self).followedBy == false)
        }
        #expect(try await t.node.database.readSQL { try Delivery.fetchCount($0) } == 0, "local follows need no delivery")
    }

    @Test("remove_from_followers needs write:follows and a known account")
    func refusals() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, _) = try await t.user("alice")
        let (_, readOnly) = try await t.user("bob", scopes: "read")
        let (_, token) = try await t.user("carol", scopes: "write:follows")
        try await t.withClient { client async throws in
            #expect(try await client.api(.post, "/api/v1/accounts/\(alice.id)/remove_from_followers").status == .unauthorized)
            #expect(try await client.api(.post, "/api/v1/accounts/\(alice.id)/remove_from_followers", token: readOnly).status == .forbidden)
            #expect(try await client.api(.post, "/api/v1/accounts/424242/remove_from_followers", token: token).status == .notFound)
            #expect(try await client.api(.post, "/api/v1/accounts/\(alice.id)/remove_from_followers", token: token).status == .ok)
        }
    }
}
