@testable import Core
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// follow, unfollow, block, unblock, relationships, blocks and follow requests.
@Suite("Client API: relationships")
struct RelationshipsTests {
    @Test("follow and unfollow answer the relationship; follower counts follow")
    func followAndUnfollow() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (bob, bobToken) = try await t.user("bob", scopes: "read follow")
        try await t.withClient { client in
            let r = try await client.api(.post, "/api/v1/accounts/\(alice.id)/follow", token: bobToken)
            #expect(r.status == .ok)
            let relationship = try r.entity(APIRelationship.self)
            #expect(relationship.id == String(alice.id))
            #expect(relationship.following && !relationship.requested && !relationship.followedBy)
            let again = try await client.api(.post, "/api/v1/accounts/\(alice.id)/follow", token: bobToken).entity(APIRelationship.self)
            #expect(again.following, "following twice changes nothing")
            let seenByAlice = try await client.api(.get, "/api/v1/accounts/relationships?id[]=\(bob.id)", token: aliceToken)
            #expect(try seenByAlice.entity([APIRelationship].self).first?.followedBy == true)
            #expect(try await client.api(.get, "/api/v1/accounts/\(alice.id)").entity(APIAccount.self).followersCount == 1)

            let after = try await client.api(.post, "/api/v1/accounts/\(alice.id)/unfollow", token: bobToken).entity(APIRelationship.self)
            #expect(!after.following && !after.requested)
            #expect(try await client.api(.get, "/api/v1/accounts/\(alice.id)").entity(APIAccount.self).followersCount == 0)
        }
    }

    @Test("follow needs a token with write:follows (or follow) and a known account")
    func followErrors() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (_, readOnly) = try await t.user("bob", scopes: "read")
        let (_, blocksOnly) = try await t.user("carol", scopes: "write:blocks")
        try await t.withClient { client async throws in
            #expect(try await client.api(.post, "/api/v1/accounts/\(alice.id)/follow").status == .unauthorized)
            #expect(try await client.api(.post, "/api/v1/accounts/\(alice.id)/follow", token: readOnly).status == .forbidden)
            #expect(try await client.api(.post, "/api/v1/accounts/\(alice.id)/follow", token: blocksOnly).status == .forbidden)
            #expect(try await client.api(.post, "/api/v1/accounts/\(alice.id)/block", token: blocksOnly).status == .ok)
            #expect(try await client.api(.post, "/api/v1/accounts/424242/follow", token: aliceToken).status == .notFound)
            #expect(try await client.api(.post, "/api/v1/accounts/\(alice.id)/follow", token: aliceToken).status == .unprocessableContent)
        }
    }

    @Test("following a remote account stays requested until its node accepts, and sends Follow")
    func followRemote() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        let remote = try await AccountsTests.remoteAccount("dana", domain: "photos.example", in: t)
        try await t.withClient { client in
            let relationship = try await client.api(.post, "/api/v1/accounts/\(remote.id)/follow", token: token).entity(APIRelationship.self)
            #expect(relationship.requested && !relationship.following)
        }
        let deliveries = try await t.node.database.readSQL { try Delivery.fetchAll($0) }
        #expect(deliveries.map(\.inboxUrl) == ["https://photos.example/inbox"])
        let payload = String(decoding: deliveries.first?.payload ?? Data(), as: UTF8.self)
        #expect(payload.contains("\"Follow\""))
    }

    @Test("block ends follows both ways, refuses new follows, and unblock lifts it")
    func blockAndUnblock() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (bob, bobToken) = try await t.user("bob")
        try await t.node.interactions.follow(alice, by: bob)
        try await t.node.interactions.follow(bob, by: alice)
        try await t.withClient { client in
            let blocked = try await client.api(.post, "/api/v1/accounts/\(bob.id)/block", token: aliceToken).entity(APIRelationship.self)
            #expect(blocked.blocking && !blocked.following && !blocked.followedBy)
            let seenByBob = try await client.api(.get, "/api/v1/accounts/relationships?id=\(alice.id)", token: bobToken)
            #expect(try seenByBob.entity([APIRelationship].self).first?.blockedBy == true)
            let refused = try await client.api(.post, "/api/v1/accounts/\(alice.id)/follow", token: bobToken)
            #expect(refused.status == .forbidden)
            #expect(refused.json?["error"] as? String == "This action is not allowed")
            let lifted = try await client.api(.post, "/api/v1/accounts/\(bob.id)/unblock", token: aliceToken).entity(APIRelationship.self)
            #expect(!lifted.blocking && !lifted.following)
            #expect(try await client.api(.post, "/api/v1/accounts/\(alice.id)/follow", token: bobToken).status == .ok)
            #expect(try await client.api(.post, "/api/v1/accounts/\(bob.id)/unblock").status == .unauthorized)
        }
    }

    @Test("relationships answers the known ids in the order asked")
    func relationships() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (bob, _) = try await t.user("bob")
        let (carol, _) = try await t.user("carol")
        let (_, writeOnly) = try await t.user("dave", scopes: "write")
        try await t.node.interactions.follow(carol, by: alice)
        try await t.withClient { client in
            let r = try await client.api(.get, "/api/v1/accounts/relationships?id[]=\(carol.id)&id[]=999&id[]=\(bob.id)&id[]=\(carol.id)", token: aliceToken)
            #expect(r.status == .ok)
            let list = try r.entity([APIRelationship].self)
            #expect(list.map(\.id) == [String(carol.id), String(bob.id)])
            #expect(list.map(\.following) == [true, false])
            #expect(try await client.api(.get, "/api/v1/accounts/relationships?id[]=\(bob.id)").status == .unauthorized)
            #expect(try await client.api(.get, "/api/v1/accounts/relationships?id[]=\(bob.id)", token: writeOnly).status == .forbidden)
            _ = alice
        }
    }

    @Test("familiar_followers names, for each account asked, whom the caller follows that follows it too")
    func familiarFollowers() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (bob, _) = try await t.user("bob")
        let (carol, _) = try await t.user("carol")
        let (dave, _) = try await t.user("dave")
        let (erin, _) = try await t.user("erin")
        let (frank, frankToken) = try await t.user("frank")
        try await t.node.interactions.follow(bob, by: alice)
        try await t.node.interactions.follow(carol, by: alice)
        for follower in [bob, carol, erin] { try await t.node.interactions.follow(dave, by: follower) }
        try await t.node.interactions.follow(erin, by: bob)
        // frank is locked: alice's follow of him is a request, so his follow of dave does not count.
        try await t.withClient { client in
            #expect(try await client.api(.patch, "/api/v1/accounts/update_credentials", token: frankToken, json: ["locked": true]).status == .ok)
            let asked = try await client.api(.post, "/api/v1/accounts/\(frank.id)/follow", token: aliceToken).entity(APIRelationship.self)
            #expect(asked.requested)
            try await t.node.interactions.follow(dave, by: frank)
            let r = try await client.api(.get, "/api/v1/accounts/familiar_followers?id[]=\(dave.id)&id[]=999&id[]=\(erin.id)", token: aliceToken)
            #expect(r.status == .ok)
            let list = try r.entity([APIFamiliarFollowers].self)
            #expect(list.map(\.id) == [String(dave.id), String(erin.id)])
            #expect(list.first?.accounts.map(\.username) == ["carol", "bob"])
            #expect(list.last?.accounts.map(\.username) == ["bob"])
            #expect(try await client.api(.get, "/api/v1/accounts/familiar_followers?id[]=\(dave.id)").status == .unauthorized)
            let (_, statusesOnly) = try await t.user("gus", scopes: "read:statuses")
            #expect(try await client.api(.get, "/api/v1/accounts/familiar_followers?id[]=\(dave.id)", token: statusesOnly).status == .forbidden)
            // Mastodon.py sends the ids as a JSON body on this GET.
            let byJSON = try await client.api(.get, "/api/v1/accounts/familiar_followers", token: aliceToken, json: ["id": [String(dave.id)]])
            #expect(try byJSON.entity([APIFamiliarFollowers].self).first?.accounts.map(\.username) == ["carol", "bob"])
            // Once dave blocks alice, she is not told who follows him.
            try await t.node.interactions.block(alice, by: dave)
            let blocked = try await client.api(.get, "/api/v1/accounts/familiar_followers?id[]=\(dave.id)", token: aliceToken)
            #expect(try blocked.entity([APIFamiliarFollowers].self).map(\.accounts.count) == [0])
        }
    }

    @Test("a private note shows in the writer's relationship only; empty removes it; over 2,000 characters is refused")
    func privateNote() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, aliceToken) = try await t.user("alice")
        let (bob, _) = try await t.user("bob")
        let (_, readOnly) = try await t.user("carol", scopes: "read")
        try await t.withClient { client in
            func note(_ token: String) async throws -> String? {
                try await client.api(.get, "/api/v1/accounts/relationships?id[]=\(bob.id)", token: token).entity([APIRelationship].self).first?.note
            }
            let saved = try await client.api(.post, "/api/v1/accounts/\(bob.id)/note", token: aliceToken, form: "comment=Met+at+the+harbour")
            #expect(saved.status == .ok)
            #expect(try saved.entity(APIRelationship.self).note == "Met at the harbour")
            #expect(try await note(aliceToken) == "Met at the harbour")
            #expect(try await note(readOnly) == "", "another person's note stays private")
            let changed = try await client.api(.post, "/api/v1/accounts/\(bob.id)/note", token: aliceToken, json: ["comment": "Sails on Sundays"])
            #expect(try changed.entity(APIRelationship.self).note == "Sails on Sundays")
            let long = String(repeating: "a", count: 2001)
            let refused = try await client.api(.post, "/api/v1/accounts/\(bob.id)/note", token: aliceToken, json: ["comment": long])
            #expect(refused.status == .unprocessableContent)
            #expect(try await note(aliceToken) == "Sails on Sundays", "a refused note changes nothing")
            #expect(try await client.api(.post, "/api/v1/accounts/\(bob.id)/note", token: readOnly, form: "comment=x").status == .forbidden)
            #expect(try await client.api(.post, "/api/v1/accounts/424242/note", token: aliceToken, form: "comment=x").status == .notFound)
            // 2,001 code points in two characters: counted as Mastodon counts them.
            let marks = "e" + String(repeating: "\u{301}", count: 1_000) + "a" + String(repeating: "\u{301}", count: 999)
            let combining = try await client.api(.post, "/api/v1/accounts/\(bob.id)/note", token: aliceToken, json: ["comment": marks])
            #expect(combining.status == .unprocessableContent)
            let blank = try await client.api(.post, "/api/v1/accounts/\(bob.id)/note", token: aliceToken, json: ["comment": "  \n "])
            #expect(try blank.entity(APIRelationship.self).note == "", "a blank note removes it")
            _ = try await client.api(.post, "/api/v1/accounts/\(bob.id)/note", token: aliceToken, form: "comment=again")
            let cleared = try await client.api(.post, "/api/v1/accounts/\(bob.id)/note", token: aliceToken, form: "comment=")
            #expect(try cleared.entity(APIRelationship.self).note == "")
            #expect(try await note(aliceToken) == "")
        }
    }

    @Test("blocks lists blocked accounts newest first with a Link header")
    func blocksList() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        let (bob, _) = try await t.user("bob")
        let (carol, _) = try await t.user("carol")
        let (_, statusesOnly) = try await t.user("dave", scopes: "read:statuses")
        try await t.withClient { client in
            for target in [bob, carol] {
                #expect(try await client.api(.post, "/api/v1/accounts/\(target.id)/block", token: token).status == .ok)
            }
            let r = try await client.api(.get, "/api/v1/blocks?limit=1", token: token)
            #expect(r.status == .ok)
            #expect((r.jsonArray ?? []).map { $0["username"] as? String } == ["carol"])
            let blockIds = try await t.node.database.readSQL { try Block.order(Column("id").desc).fetchAll($0).map(\.id) }
            let link = try #require(r.headers[.link])
            #expect(link.contains("max_id=\(blockIds[0])") && link.contains("limit=1"))
            let next = try await client.api(.get, "/api/v1/blocks?limit=1&max_id=\(blockIds[0])", token: token)
            #expect((next.jsonArray ?? []).map { $0["username"] as? String } == ["bob"])
            #expect(try await client.api(.get, "/api/v1/blocks").status == .unauthorized)
            #expect(try await client.api(.get, "/api/v1/blocks", token: statusesOnly).status == .forbidden)
        }
    }

    @Test("a locked account's follow requests: requested, listed, authorized, rejected")
    func lockedAccountFlow() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (bob, bobToken) = try await t.user("bob")
        let (alice, aliceToken) = try await t.user("alice")
        let (carol, carolToken) = try await t.user("carol")
        try await t.withClient { client in
            #expect(try await client.api(.patch, "/api/v1/accounts/update_credentials", token: bobToken, json: ["locked": true]).status == .ok)
            let asked = try await client.api(.post, "/api/v1/accounts/\(bob.id)/follow", token: aliceToken).entity(APIRelationship.self)
            #expect(asked.requested && !asked.following)
            _ = try await client.api(.post, "/api/v1/accounts/\(bob.id)/follow", token: carolToken)

            let requests = try await client.api(.get, "/api/v1/follow_requests", token: bobToken)
            #expect(requests.status == .ok)
            #expect((requests.jsonArray ?? []).map { $0["username"] as? String } == ["carol", "alice"])
            #expect(requests.headers[.link] != nil)
            let me = try await client.api(.get, "/api/v1/accounts/verify_credentials", token: bobToken).entity(APIAccount.self)
            #expect(me.source?.followRequestsCount == 2 && me.followersCount == 0)
            let seen = try await client.api(.get, "/api/v1/accounts/relationships?id[]=\(alice.id)", token: bobToken)
            #expect(try seen.entity([APIRelationship].self).first?.requestedBy == true)

            let authorized = try await client.api(.post, "/api/v1/follow_requests/\(alice.id)/authorize", token: bobToken)
            #expect(authorized.status == .ok)
            let relation = try authorized.entity(APIRelationship.self)
            #expect(relation.followedBy && !relation.requestedBy)
            let aliceSide = try await client.api(.post, "/api/v1/accounts/\(bob.id)/follow", token: aliceToken).entity(APIRelationship.self)
            #expect(aliceSide.following && !aliceSide.requested)

            let rejected = try await client.api(.post, "/api/v1/follow_requests/\(carol.id)/reject", token: bobToken).entity(APIRelationship.self)
            #expect(!rejected.followedBy && !rejected.requestedBy)
            let carolSide = try await client.api(.get, "/api/v1/accounts/relationships?id[]=\(bob.id)", token: carolToken)
            #expect(try carolSide.entity([APIRelationship].self).first.map { !$0.following && !$0.requested } == true)

            #expect(try await client.api(.get, "/api/v1/follow_requests", token: bobToken).jsonArray?.isEmpty == true)
            #expect(try await client.api(.get, "/api/v1/accounts/\(bob.id)").entity(APIAccount.self).followersCount == 1)
            #expect(try await client.api(.post, "/api/v1/follow_requests/\(carol.id)/authorize", token: bobToken).status == .notFound)
            #expect(try await client.api(.post, "/api/v1/follow_requests/999/reject", token: bobToken).status == .notFound)
        }
        let notifications = try await t.node.database.readSQL { db in
            try AccountNotification.filter(Column("account_id") == bob.id).fetchAll(db).map { "\($0.type.rawValue):\($0.fromAccountId)" }
        }
        #expect(notifications == ["follow:\(alice.id)"], "the requests' notifications leave with them; the approval notifies")
    }

    @Test("follow request endpoints need their scopes")
    func followRequestScopes() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, _) = try await t.user("alice")
        let (_, readOnly) = try await t.user("bob", scopes: "read")
        let (_, writeOnly) = try await t.user("carol", scopes: "write")
        try await t.withClient { client async throws in
            #expect(try await client.api(.get, "/api/v1/follow_requests").status == .unauthorized)
            #expect(try await client.api(.get, "/api/v1/follow_requests", token: writeOnly).status == .forbidden)
            #expect(try await client.api(.post, "/api/v1/follow_requests/\(alice.id)/authorize", token: readOnly).status == .forbidden)
            #expect(try await client.api(.post, "/api/v1/follow_requests/\(alice.id)/reject", token: readOnly).status == .forbidden)
            #expect(try await client.api(.post, "/api/v1/follow_requests/\(alice.id)/authorize").status == .unauthorized)
        }
    }

    @Test("authorizing or rejecting a remote follower answers its node with Accept or Reject")
    func remoteRequests() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (bob, bobToken) = try await t.user("bob")
        let dana = try await AccountsTests.remoteAccount("dana", domain: "photos.example", in: t)
        let erin = try await AccountsTests.remoteAccount("erin", domain: "pics.example", in: t)
        try await t.node.database.writeSQL { db in
            try Follow(accountId: dana.id, targetAccountId: bob.id, uri: "https://photos.example/follows/1", state: .pending).insert(db)
            try Follow(accountId: erin.id, targetAccountId: bob.id, uri: "https://pics.example/follows/2", state: .pending).insert(db)
        }
        try await t.withClient { client async throws in
            #expect(try await client.api(.post, "/api/v1/follow_requests/\(dana.id)/authorize", token: bobToken).status == .ok)
            #expect(try await client.api(.post, "/api/v1/follow_requests/\(erin.id)/reject", token: bobToken).status == .ok)
        }
        let sent = try await t.node.database.readSQL { db in
            try Delivery.fetchAll(db).map { ($0.inboxUrl, String(decoding: $0.payload, as: UTF8.self)) }
        }
        let accept = try #require(sent.first { $0.0 == "https://photos.example/inbox" }?.1)
        #expect(accept.contains("\"Accept\"") && accept.contains("https://photos.example/follows/1"))
        let reject = try #require(sent.first { $0.0 == "https://pics.example/inbox" }?.1)
        #expect(reject.contains("\"Reject\"") && reject.contains("https://pics.example/follows/2"))
        let states = try await t.node.database.readSQL { try Follow.fetchAll($0).map { "\($0.accountId):\($0.state.rawValue)" } }
        #expect(states == ["\(dana.id):accepted"])
    }

    @Test("unlocking an account approves the requests waiting")
    func unlockApproves() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (bob, bobToken) = try await t.user("bob")
        let (_, aliceToken) = try await t.user("alice")
        try await t.withClient { client in
            _ = try await client.api(.patch, "/api/v1/accounts/update_credentials", token: bobToken, json: ["locked": true])
            #expect(try await client.api(.post, "/api/v1/accounts/\(bob.id)/follow", token: aliceToken).entity(APIRelationship.self).requested)
            _ = try await client.api(.patch, "/api/v1/accounts/update_credentials", token: bobToken, json: ["locked": false])
            let now = try await client.api(.get, "/api/v1/accounts/relationships?id[]=\(bob.id)", token: aliceToken)
            #expect(try now.entity([APIRelationship].self).first?.following == true)
        }
    }
}
