@testable import Core
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// `GET /api/v1/directory`, over loopback HTTP.
@Suite("Client API: profile directory")
struct DirectoryTests {
    @Test("lists discoverable accounts only, most recently posting first, or newest with order=new")
    func discoverableAndOrdered() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (bob, bobToken) = try await t.user("bob")
        let (hidden, hiddenToken) = try await t.user("hidden")
        let remote = try await AccountsTests.remoteAccount("dana", domain: "photos.example", in: t)
        _ = try await AccountsTests.remoteAccount("quiet", domain: "photos.example", discoverable: false, in: t)
        try await t.node.database.writeSQL { db in
            try db.execute(sql: "UPDATE accounts SET discoverable = 0 WHERE id = ?", arguments: [hidden.id])
        }
        try await buildApplication(node: t.node).test(.live) { client async throws in
            _ = try await StatusFixtures.post(client, token: bobToken, "older")
            let newer = try await StatusFixtures.post(client, token: aliceToken, "newer")
            _ = try await StatusFixtures.post(client, token: hiddenToken, "hidden posts too")
            let active = StatusFixtures.ids(try await client.api(.get, "/api/v1/directory"))
            #expect(active == [String(alice.id), String(bob.id), String(remote.id)])
            // Pages across those that posted and those that never did.
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/directory?limit=2")) == [String(alice.id), String(bob.id)])
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/directory?offset=1&limit=2")) == [String(bob.id), String(remote.id)])
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/directory?offset=2&limit=2")) == [String(remote.id)])
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/directory?offset=3")).isEmpty)
            let newest = StatusFixtures.ids(try await client.api(.get, "/api/v1/directory?order=new"))
            #expect(newest == [String(remote.id), String(bob.id), String(alice.id)])
            let local = StatusFixtures.ids(try await client.api(.get, "/api/v1/directory?local=true&order=new"))
            #expect(local == [String(bob.id), String(alice.id)])
            // Alice deletes her only post: she joins those that never posted, newest account first.
            #expect(try await client.api(.delete, "/api/v1/statuses/\(newer)", token: aliceToken).status == .ok)
            let after = StatusFixtures.ids(try await client.api(.get, "/api/v1/directory"))
            #expect(after == [String(bob.id), String(remote.id), String(alice.id)])
            #expect(try t.node.database.readBlocking { try $0.statistics.counterMismatches() } == [])
        }
    }

    @Test("offset and limit page the list; bad order is a 422, a bad token a 401")
    func paging() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        for name in ["a1", "a2", "a3"] { _ = try await t.user(name) }
        try await buildApplication(node: t.node).test(.live) { client async throws in
            let all = StatusFixtures.ids(try await client.api(.get, "/api/v1/directory?order=new"))
            #expect(all.count == 3)
            let page = StatusFixtures.ids(try await client.api(.get, "/api/v1/directory?order=new&offset=1&limit=1"))
            #expect(page == [all[1]])
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/directory?limit=100000")).count == 3)
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/directory?offset=-4&limit=-1")).count == 1)
            let bad = try await client.api(.get, "/api/v1/directory?order=loud")
            #expect(bad.status == .unprocessableContent)
            #expect(bad.json?["error"] is String)
            #expect(try await client.api(.get, "/api/v1/directory", token: "nope").status == .unauthorized)
        }
    }

    @Test("accounts blocked either way and blocked domains are left out")
    func blocksExcluded() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (bob, _) = try await t.user("bob")
        let (carol, carolToken) = try await t.user("carol")
        let remote = try await AccountsTests.remoteAccount("dana", domain: "bad.example", in: t)
        try await buildApplication(node: t.node).test(.live) { client async throws in
            #expect(try await client.api(.post, "/api/v1/accounts/\(bob.id)/block", token: aliceToken).status == .ok)
            #expect(try await client.api(.post, "/api/v1/accounts/\(alice.id)/block", token: carolToken).status == .ok)
            let seen = Set(StatusFixtures.ids(try await client.api(.get, "/api/v1/directory", token: aliceToken)))
            #expect(seen == [String(alice.id), String(remote.id)])
            let anonymous = Set(StatusFixtures.ids(try await client.api(.get, "/api/v1/directory")))
            #expect(anonymous == [String(alice.id), String(bob.id), String(carol.id), String(remote.id)])
        }
        _ = try await t.node.database.write { db in try db.domainBlocks.add("bad.example", at: Date()) }
        try await buildApplication(node: t.node).test(.live) { client async throws in
            #expect(!StatusFixtures.ids(try await client.api(.get, "/api/v1/directory")).contains(String(remote.id)))
        }
    }
}
