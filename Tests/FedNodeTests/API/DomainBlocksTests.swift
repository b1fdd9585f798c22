@testable import Core
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// A person hiding a domain (`/api/v1/domain_blocks`): the list, the relationship, and what it
/// hides (timelines, notifications) and ends (follows both ways, told with Undo and Reject).
@Suite("Client API: domain blocks")
struct DomainBlocksTests {
    @Test("block lists the domain newest first with Link headers, relationships say domain_blocking, unblock lifts it")
    func listAndRelationships() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        let dana = try await AccountsTests.remoteAccount("dana", domain: "photos.example", in: t)
        let erin = try await AccountsTests.remoteAccount("erin", domain: "pics.example", in: t)
        try await t.withClient { client async throws in
            let first = try await client.api(.post, "/api/v1/domain_blocks", token: token, form: "domain=photos.example")
            #expect(first.status == .ok && first.json?.isEmpty == true)
            #expect(try await client.api(.post, "/api/v1/domain_blocks", token: token, json: ["domain": " PICS.example "]).status == .ok)
            #expect(try await client.api(.post, "/api/v1/domain_blocks", token: token, form: "domain=photos.example").status == .ok)
            let list = try await client.api(.get, "/api/v1/domain_blocks", token: token)
            #expect(try list.entity([String].self) == ["pics.example", "photos.example"])
            let page = try await client.api(.get, "/api/v1/domain_blocks?limit=1", token: token)
            #expect(try page.entity([String].self) == ["pics.example"])
            #expect(page.headers[.link]?.contains("rel=\"next\"") == true)
            let both = try await client.api(.get, "/api/v1/accounts/relationships?id[]=\(dana.id)&id[]=\(erin.id)", token: token)
            #expect(try both.entity([APIRelationship].self).map(\.domainBlocking) == [true, true])

            let lifted = try await client.api(.delete, "/api/v1/domain_blocks?domain=pics.example", token: token)
            #expect(lifted.status == .ok)
            #expect(try await client.api(.get, "/api/v1/domain_blocks", token: token).entity([String].self) == ["photos.example"])
            let after = try await client.api(.get, "/api/v1/accounts/relationships?id[]=\(dana.id)&id[]=\(erin.id)", token: token)
            #expect(try after.entity([APIRelationship].self).map(\.domainBlocking) == [true, false])
        }
    }

    @Test("domain_blocks refuses a missing or malformed domain, the node's own, and tokens without the blocks scopes")
    func refusals() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        let (_, readOnly) = try await t.user("bob", scopes: "read")
        let (_, writeOnly) = try await t.user("carol", scopes: "write:blocks")
        try await t.withClient { client async throws in
            #expect(try await client.api(.post, "/api/v1/domain_blocks", token: token).status == .badRequest)
            for bad in ["not a domain!", "a/b", ".example", String(repeating: "x", count: 300)] {
                let refused = try await client.api(.post, "/api/v1/domain_blocks", token: token, json: ["domain": bad])
                #expect(refused.status == .unprocessableContent, "\(bad)")
                #expect(refused.json?["error"] as? String != nil)
            }
            let own = try await client.api(.post, "/api/v1/domain_blocks", token: token, json: ["domain": t.node.urls.domain])
            #expect(own.status == .unprocessableContent)
            #expect(try await client.api(.get, "/api/v1/domain_blocks").status == .unauthorized)
            #expect(try await client.api(.post, "/api/v1/domain_blocks", token: readOnly, form: "domain=a.example").status == .forbidden)
            #expect(try await client.api(.get, "/api/v1/domain_blocks", token: writeOnly).status == .forbidden)
            #expect(try await client.api(.post, "/api/v1/domain_blocks", token: writeOnly, form: "domain=a.example").status == .ok)
            #expect(try await client.api(.get, "/api/v1/domain_blocks", token: readOnly).entity([String].self) == [])
        }
    }

    @Test("hiding a domain takes its posts and boosts of them off home, public and tag timelines, and its notifications")
    func hidesContent() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (bob, bobToken) = try await t.user("bob")
        let dana = try await AccountsTests.remoteAccount("dana", domain: "photos.example", in: t)
        let erin = try await AccountsTests.remoteAccount("erin", domain: "pics.example", in: t)
        try await t.node.interactions.follow(bob, by: alice)
        try await Self.accepted(follower: alice, target: dana, in: t)
        try await Self.accepted(follower: alice, target: erin, in: t)
        let byDana = try await StatusFixtures.remotePost(by: dana, text: "Harbour #sea", hashtags: ["sea"], in: t.node)
        let byErin = try await StatusFixtures.remotePost(by: erin, text: "Dunes #sea", hashtags: ["sea"], in: t.node)
        let own = try await t.node.posts.create(.init(text: "Mine"), by: alice)
        try await t.node.database.write { db in
            try db.notifications.add(AccountNotification(accountId: alice.id, fromAccountId: dana.id, type: .favourite, postId: own.id))
            try db.notifications.add(AccountNotification(accountId: alice.id, fromAccountId: erin.id, type: .favourite, postId: own.id))
        }
        try await t.withClient { client async throws in
            let boost = try #require(try await client.api(.post, "/api/v1/statuses/\(byDana.id)/reblog", token: bobToken).json?["id"] as? String)
            let paths = ["/api/v1/timelines/home", "/api/v1/timelines/public", "/api/v1/timelines/tag/sea"]
            let before = try await Self.ids(client, paths, token: aliceToken)
            #expect(before[0].contains(String(byDana.id)) && before[0].contains(boost) && before[0].contains(String(byErin.id)))
            #expect(before[1].contains(String(byDana.id)) && before[2].contains(String(byDana.id)))
            #expect(try await Self.notificationSenders(client, token: aliceToken) == Set([dana.id, erin.id].map(String.init)))

            #expect(try await client.api(.post, "/api/v1/domain_blocks", token: aliceToken, form: "domain=photos.example").status == .ok)
            let after = try await Self.ids(client, paths, token: aliceToken)
            for ids in after { #expect(!ids.contains(String(byDana.id)) && !ids.contains(boost)) }
            #expect(after[0].contains(String(byErin.id)) && after[1].contains(String(byErin.id)) && after[2].contains(String(byErin.id)))
            #expect(try await Self.notificationSenders(client, token: aliceToken) == [String(erin.id)])
            // A notification arriving later stays hidden too (and bob, who hides nothing, still sees dana's post).
            try await t.node.database.write { db in
                try db.notifications.add(AccountNotification(accountId: alice.id, fromAccountId: dana.id, type: .mention, postId: nil))
            }
            #expect(try await Self.notificationSenders(client, token: aliceToken) == [String(erin.id)])
            #expect(try await Self.ids(client, ["/api/v1/timelines/public"], token: bobToken)[0].contains(String(byDana.id)))
        }
    }

    @Test("hiding a domain ends follows both ways: Undo(Follow) for ours, Reject(Follow) of theirs")
    func endsFollows() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, token) = try await t.user("alice")
        let dana = try await AccountsTests.remoteAccount("dana", domain: "photos.example", in: t)
        let erin = try await AccountsTests.remoteAccount("erin", domain: "pics.example", in: t)
        try await Self.accepted(follower: alice, target: dana, in: t)
        try await Self.accepted(follower: dana, target: alice, in: t, uri: "https://photos.example/follows/1")
        try await Self.accepted(follower: erin, target: alice, in: t)
        try await t.withClient { client async throws in
            #expect(try await client.api(.post, "/api/v1/domain_blocks", token: token, form: "domain=photos.example").status == .ok)
            let relationship = try await client.api(.get, "/api/v1/accounts/relationships?id[]=\(dana.id)", token: token)
            let seen = try #require(try relationship.entity([APIRelationship].self).first)
            #expect(!seen.following && !seen.followedBy && seen.domainBlocking)
            let followers = try await client.api(.get, "/api/v1/accounts/\(alice.id)/followers", token: token)
            #expect(StatusFixtures.ids(followers) == [String(erin.id)])
        }
        let payloads = try await t.node.database.readSQL { try Delivery.fetchAll($0) }.map { String(decoding: $0.payload, as: UTF8.self) }
        #expect(payloads.contains { $0.contains("\"Undo\"") && $0.contains("\"Follow\"") && $0.contains(dana.uri) })
        #expect(payloads.contains { $0.contains("\"Reject\"") && $0.contains("https://photos.example/follows/1") })
        #expect(!payloads.contains { $0.contains(erin.uri) }, "erin's domain is not hidden")
    }

    /// An accepted follow row, as an answered Follow leaves it.
    static func accepted(follower: Account, target: Account, in t: TestNode, uri: String? = nil) async throws {
        try await t.node.database.write { db in
            try db.follows.insert(Follow(accountId: follower.id, targetAccountId: target.id, uri: uri ?? "\(follower.uri)/follows/\(target.id)",
                                         state: .accepted))
            if follower.isLocal { try db.timelines.backfill(author: target.id, into: follower.id) }
        }
    }

    private static func ids(_ client: any TestClientProtocol, _ paths: [String], token: String) async throws -> [[String]] {
        var all: [[String]] = []
        for path in paths { all.append(StatusFixtures.ids(try await client.api(.get, path, token: token))) }
        return all
    }

    private static func notificationSenders(_ client: any TestClientProtocol, token: String) async throws -> Set<String> {
        let list = try await client.api(.get, "/api/v1/notifications", token: token).jsonArray ?? []
        return Set(list.compactMap { ($0["account"] as? [String: Any])?["id"] as? String })
    }
}
