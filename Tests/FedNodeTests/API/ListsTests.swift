@testable import Core
import Foundation
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// Lists: CRUD, members (followed accounts only), the list timeline, exclusive lists and
/// members leaving when unfollowed.
@Suite("Client API: lists")
struct ListsTests {
    @Test("a list is created, renamed, shown and deleted; bad input is a 4xx")
    func crud() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        let (_, other) = try await t.user("bob")
        try await t.withClient { client in
            let created = try await client.api(.post, "/api/v1/lists", token: token, json: ["title": "Photographers", "replies_policy": "none"])
            #expect(created.status == .ok)
            let list = try created.entity(APIList.self)
            #expect(list.title == "Photographers" && list.repliesPolicy == "none" && !list.exclusive)
            let renamed = try await client.api(.put, "/api/v1/lists/\(list.id)", token: token, json: ["title": "Friends", "exclusive": true])
            #expect(try renamed.entity(APIList.self) == APIList(id: list.id, title: "Friends", repliesPolicy: "none", exclusive: true))
            #expect(try await client.api(.get, "/api/v1/lists", token: token).entity([APIList].self).map(\.title) == ["Friends"])
            #expect(try await client.api(.get, "/api/v1/lists/\(list.id)", token: other).status == .notFound, "another's list")
            #expect(try await client.api(.post, "/api/v1/lists", token: token, json: ["title": " "]).status == .unprocessableContent)
            #expect(try await client.api(.post, "/api/v1/lists", token: token, json: ["title": "x", "replies_policy": "all"]).status
                == .unprocessableContent)
            #expect(try await client.api(.get, "/api/v1/lists/abc", token: token).status == .notFound)
            #expect(try await client.api(.get, "/api/v1/lists").status == .unauthorized)
            #expect(try await client.api(.delete, "/api/v1/lists/\(list.id)", token: token).status == .ok)
            #expect(try await client.api(.get, "/api/v1/lists/\(list.id)", token: token).status == .notFound)
        }
    }

    @Test("only followed accounts join; the list timeline shows members' posts; unfollow removes the member")
    func membersAndTimeline() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (bob, bobToken) = try await t.user("bob")
        let (carol, carolToken) = try await t.user("carol")
        try await t.node.interactions.follow(bob, by: alice)
        try await t.withClient { client in
            let list = try await client.api(.post, "/api/v1/lists", token: aliceToken, json: ["title": "Bob"]).entity(APIList.self)
            let refused = try await client.api(.post, "/api/v1/lists/\(list.id)/accounts", token: aliceToken, json: ["account_ids": [String(carol.id)]])
            #expect(refused.status == .unprocessableContent, "carol is not followed")
            let added = try await client.api(.post, "/api/v1/lists/\(list.id)/accounts", token: aliceToken, json: ["account_ids": [String(bob.id)]])
            #expect(added.status == .ok)
            let members = try await client.api(.get, "/api/v1/lists/\(list.id)/accounts", token: aliceToken).entity([APIAccount].self)
            #expect(members.map(\.id) == [String(bob.id)])
            let containing = try await client.api(.get, "/api/v1/accounts/\(bob.id)/lists", token: aliceToken).entity([APIList].self)
            #expect(containing.map(\.id) == [list.id])

            let first = try await StatusFixtures.post(client, token: bobToken, "first from bob")
            let second = try await StatusFixtures.post(client, token: bobToken, "second from bob")
            _ = try await StatusFixtures.post(client, token: carolToken, "carol is not listed")
            _ = try await StatusFixtures.post(client, token: bobToken, "secret", visibility: "direct")
            let page = try await client.api(.get, "/api/v1/timelines/list/\(list.id)?limit=1", token: aliceToken)
            #expect(StatusFixtures.ids(page) == [second])
            #expect(page.headers[.link]?.contains("max_id=\(second)") == true)
            let next = try await client.api(.get, "/api/v1/timelines/list/\(list.id)?max_id=\(second)", token: aliceToken)
            #expect(StatusFixtures.ids(next) == [first])
            #expect(try await client.api(.get, "/api/v1/timelines/list/\(list.id)", token: bobToken).status == .notFound)

            _ = try await client.api(.post, "/api/v1/accounts/\(bob.id)/unfollow", token: aliceToken)
            let after = try await client.api(.get, "/api/v1/lists/\(list.id)/accounts", token: aliceToken).entity([APIAccount].self)
            #expect(after.isEmpty, "unfollowing takes bob out of alice's lists")
        }
    }

    @Test("an exclusive list keeps its members' posts off the home timeline")
    func exclusive() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (bob, bobToken) = try await t.user("bob")
        let (carol, carolToken) = try await t.user("carol")
        try await t.node.interactions.follow(bob, by: alice)
        try await t.node.interactions.follow(carol, by: alice)
        try await t.withClient { client in
            let bobPost = try await StatusFixtures.post(client, token: bobToken, "bob's photo")
            let carolPost = try await StatusFixtures.post(client, token: carolToken, "carol's photo")
            let list = try await client.api(.post, "/api/v1/lists", token: aliceToken, json: ["title": "Bob", "exclusive": true]).entity(APIList.self)
            _ = try await client.api(.post, "/api/v1/lists/\(list.id)/accounts", token: aliceToken, json: ["account_ids": [String(bob.id)]])
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/home", token: aliceToken)) == [carolPost])
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/list/\(list.id)", token: aliceToken)) == [bobPost])
            _ = try await client.api(.put, "/api/v1/lists/\(list.id)", token: aliceToken, json: ["exclusive": false])
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/home", token: aliceToken)) == [carolPost, bobPost])
        }
    }
}
