import Activity
@testable import Core
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// The account's own lifecycle over the client API: deleting one's account with the password,
/// the CSV exports in Mastodon's shapes, and importing them into another account.
@Suite("Client API: account deletion, export and import")
struct LifecycleTests {
    @Test("POST /api/v1/accounts/delete: refused without or with a wrong password or scope; then the account, its token and photos are gone, the actor answers 410 and the name stays taken")
    func selfDeletion() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, token) = try await t.user("alice")
        let (_, readOnly) = try await t.user("carol", scopes: "read")
        try await t.withClient { client in
            let mediaId = try await StatusFixtures.uploadedMedia(client, token: token)
            let posted = try await client.api(.post, "/api/v1/statuses", token: token, json: ["status": "Pier at dusk", "media_ids": [mediaId]])
            #expect(posted.status == .ok)
            let store = MediaStore(root: URL(fileURLWithPath: t.node.uploadStore.directory))
            let paths = try await t.node.database.read { db in try db.accountArchive.ownedMediaPaths(of: alice.id) }
            #expect(paths.count == 2, "the photo and its thumbnail")
            #expect(paths.allSatisfy { store.file(at: $0) != nil })

            let missing = try await client.api(.post, "/api/v1/accounts/delete", token: token, form: "")
            #expect(missing.status == .badRequest)
            let wrong = try await client.api(.post, "/api/v1/accounts/delete", token: token, form: "password=not+my+password")
            #expect(wrong.status == .forbidden && wrong.json?["error"] as? String == "Invalid password")
            #expect(try await client.api(.post, "/api/v1/accounts/delete", token: readOnly, form: "password=correct+horse+battery").status == .forbidden)
            #expect(try await t.node.database.read { db in try db.accounts.exists(id: alice.id) })

            let deleted = try await client.api(.post, "/api/v1/accounts/delete", token: token, json: ["password": "correct horse battery"])
            #expect(deleted.status == .accepted && deleted.json?["message"] as? String == "accepted")
            #expect(try await client.api(.get, "/api/v1/accounts/verify_credentials", token: token).status == .unauthorized)
            let actor = try await client.api(.get, "/users/alice", headers: [.accept: "application/activity+json"])
            #expect(actor.status == .gone)
            #expect(paths.allSatisfy { store.file(at: $0) == nil }, "photo files removed")
            #expect(try await t.node.database.read { db in try db.accountArchive.postCount(of: alice.id) } == 0)

            let (_, appToken) = try await SignUpTests.appToken(client)
            let again = try await client.api(.post, "/api/v1/accounts", token: appToken, json: [
                "username": "alice", "email": "alice.again@example.test", "password": "long enough secret", "agreement": true, "locale": "en"])
            #expect(again.status == .unprocessableContent)
            #expect((again.json?["error"] as? String)?.contains("taken") == true, "\(again.text)")
        }
    }

    @Test("the Delete of a deleted actor also goes to the servers of the accounts it liked, mentioned or blocked, not to servers it never reached")
    func deleteReachesInteractedServers() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, token) = try await t.user("alice")
        let gail = try await StatusFixtures.remoteAccount("gail", domain: "liked.example", in: t.node)
        let hal = try await StatusFixtures.remoteAccount("hal", domain: "blocked.example", in: t.node)
        _ = try await StatusFixtures.remoteAccount("ivy", domain: "mentioned.example", in: t.node)
        _ = try await StatusFixtures.remoteAccount("jo", domain: "unrelated.example", in: t.node)
        let liked = try await StatusFixtures.remotePost(by: gail, text: "Fog on the water", in: t.node)
        try await t.node.interactions.like(liked.id, by: alice)
        try await t.node.interactions.block(hal, by: alice)
        _ = try await t.node.posts.create(.init(text: "Hello @ivy@mentioned.example"), by: alice)
        let deleted = try await t.withClient { client in
            try await client.api(.post, "/api/v1/accounts/delete", token: token, form: "password=correct+horse+battery").status
        }
        #expect(deleted == .accepted)
        let deletes = try await t.node.database.readSQL { db in
            try Delivery.fetchAll(db).filter { (try? ASObject.decode(from: $0.payload))?.type == "Delete" }.map(\.inboxUrl)
        }
        #expect(Set(deletes) == ["https://liked.example/inbox", "https://blocked.example/inbox", "https://mentioned.example/inbox"])
    }

    @Test("the CSV exports list following, followers, blocks, mutes and bookmarks in Mastodon's shapes")
    func csvExports() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, token) = try await t.user("alice")
        let (bob, bobToken) = try await t.user("bob")
        let (carol, _) = try await t.user("carol")
        let erin = try await StatusFixtures.remoteAccount("erin", domain: "one.example", in: t.node)
        try await t.node.interactions.follow(bob, by: alice)
        try await t.node.interactions.follow(erin, by: alice)
        try await t.node.interactions.follow(alice, by: bob)
        try await t.node.interactions.block(carol, by: alice)
        try await t.node.database.write { db in
            try db.mutes.save(Mute(accountId: alice.id, targetAccountId: erin.id, hideNotifications: false, expiresAt: nil))
        }
        let post = try await t.node.posts.create(.init(text: "Worth keeping"), by: bob)
        try await t.node.database.write { db in try db.bookmarks.add(account: alice.id, post: post.id) }
        _ = bobToken
        try await t.withClient { client in
            let following = try await client.api(.get, "/api/v1/exports/following.csv", token: token)
            #expect(following.status == .ok && following.headers[.contentType]?.hasPrefix("text/csv") == true)
            #expect(following.text == "Account address,Show boosts,Notify on new posts,Languages\nbob@social.test,true,false,\nerin@one.example,true,false,\n")
            #expect(try await client.api(.get, "/api/v1/exports/followers.csv", token: token).text == "Account address\nbob@social.test\n")
            #expect(try await client.api(.get, "/api/v1/exports/blocks.csv", token: token).text == "carol@social.test\n")
            #expect(try await client.api(.get, "/api/v1/exports/mutes.csv", token: token).text == "Account address,Hide notifications\nerin@one.example,false\n")
            #expect(try await client.api(.get, "/api/v1/exports/bookmarks.csv", token: token).text == "\(post.uri)\n")
            #expect(try await client.api(.get, "/api/v1/exports/following.csv").status == .unauthorized)
        }
    }

    @Test("POST /api/v1/import: a Mastodon following CSV with a header, a plain block list and a mute list become the same relations; unknown rows are reported")
    func importLists() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (frank, token) = try await t.user("frank")
        let (bob, _) = try await t.user("bob")
        let (carol, _) = try await t.user("carol")
        let (dave, _) = try await t.user("dave")
        let erin = try await StatusFixtures.remoteAccount("erin", domain: "one.example", in: t.node)
        try await t.node.interactions.follow(dave, by: frank)
        try await t.withClient { client in
            let following = "Account address,Show boosts,Notify on new posts,Languages\r\nbob@social.test,true,false,\r\n@erin@one.example,true,false,\r\nnobody@social.test,true,false,\r\nnot an address,true,false,\r\n"
            let imported = try await Self.importCSV(client, token: token, type: "following", mode: "overwrite", csv: following)
            #expect(imported.status == .accepted, "\(imported.text)")
            #expect(imported.json?["imported"] as? Int == 2 && imported.json?["removed"] as? Int == 1)
            let failed = (imported.json?["failed"] as? [[String: Any]] ?? []).compactMap { $0["address"] as? String }
            #expect(Set(failed) == ["nobody@social.test", "not an address"])
            let blocks = try await Self.importCSV(client, token: token, type: "blocks", mode: "merge", csv: "carol@social.test\n")
            #expect(blocks.json?["imported"] as? Int == 1)
            let mutes = try await Self.importCSV(client, token: token, type: "mutes", mode: "merge",
                                                 csv: "Account address,Hide notifications\nerin@one.example,false\n")
            #expect(mutes.json?["imported"] as? Int == 1)
        }
        let (following, blocked, muted) = try await t.node.database.read { db in
            (try db.accountArchive.following(of: frank.id, limit: 10).map(\.id), try db.accountArchive.blocked(by: frank.id, limit: 10).map(\.id),
             try db.accountArchive.muted(by: frank.id, limit: 10).map { [$0.account.id: $0.hidesNotifications] })
        }
        #expect(Set(following) == [bob.id, erin.id], "dave is no longer followed (overwrite)")
        #expect(blocked == [carol.id])
        #expect(muted == [[erin.id: false]])
    }

    @Test("POST /api/v1/import refuses a bad type, mode, scope, an unclosed quote, an empty or too long file")
    func importRefusals() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("frank")
        let (_, blocksOnly) = try await t.user("gail", scopes: "write:blocks")
        try await t.withClient { client in
            #expect(try await Self.importCSV(client, token: token, type: "lists", mode: "merge", csv: "a@b.c\n").status == .unprocessableContent)
            #expect(try await Self.importCSV(client, token: token, type: "blocks", mode: "replace", csv: "a@b.c\n").status == .unprocessableContent)
            #expect(try await Self.importCSV(client, token: blocksOnly, type: "following", mode: "merge", csv: "a@b.c\n").status == .forbidden)
            let unclosed = try await Self.importCSV(client, token: token, type: "blocks", mode: "merge", csv: "\"a@b.c,true\n")
            #expect(unclosed.status == .unprocessableContent && (unclosed.json?["error"] as? String)?.contains("CSV") == true)
            #expect(try await Self.importCSV(client, token: token, type: "blocks", mode: "merge", csv: "\n\n").status == .unprocessableContent)
            let long = (0...AccountImport.maxRows).map { "someone\($0)@far.example\n" }.joined()
            let tooLong = try await Self.importCSV(client, token: token, type: "blocks", mode: "merge", csv: long)
            #expect(tooLong.status == .unprocessableContent && (tooLong.json?["error"] as? String)?.contains("too many rows") == true)
            #expect(try await Self.importCSV(client, token: nil, type: "blocks", mode: "merge", csv: "a@b.c\n").status == .unauthorized)
        }
    }

    @Test("fednode user export NAME --to FILE writes the archive as a ZIP; an unknown name is an error and writes nothing")
    func cliExport() async throws {
        let dataDir = (NSTemporaryDirectory() as NSString).appendingPathComponent("fednode-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(atPath: dataDir) }
        let settings = ["--data-dir", dataDir, "--domain", "photos.test"]
        #expect(try await FedNodeProcess.run(["user", "create", "alice", "--email", "alice@example.com", "--password", "correct horse"] + settings).status == 0)
        #expect(try await FedNodeProcess.run(["user", "create", "bob", "--email", "bob@example.com", "--password", "correct horse"] + settings).status == 0)
        let aliased = try await FedNodeProcess.run(["user", "alias", "alice", "https://photos.test/users/bob", "--data-dir", dataDir])
        #expect(aliased.status == 0, "\(aliased.stderr)")
        let file = (dataDir as NSString).appendingPathComponent("alice.zip")
        let exported = try await FedNodeProcess.run(["user", "export", "alice", "--to", file] + settings)
        #expect(exported.status == 0 && exported.stdout.contains("Wrote the archive of @alice@photos.test"))
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) && bytes.suffix(22).starts(with: [0x50, 0x4B, 0x05, 0x06]))
        #expect(String(decoding: bytes, as: UTF8.self).contains("\"preferredUsername\":\"alice\""), "actor.json is stored uncompressed")
        #expect(String(decoding: bytes, as: UTF8.self).contains("\"alsoKnownAs\":[\"https:\\/\\/photos.test\\/users\\/bob\"]")
                    || String(decoding: bytes, as: UTF8.self).contains("\"alsoKnownAs\":[\"https://photos.test/users/bob\"]"), "actor.json carries the aliases, as the served actor does")
        let missing = (dataDir as NSString).appendingPathComponent("nobody.zip")
        let unknown = try await FedNodeProcess.run(["user", "export", "nobody", "--to", missing] + settings)
        #expect(unknown.status != 0 && unknown.stderr.contains("No local account named nobody"))
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    static func importCSV(_ client: any TestClientProtocol, token: String?, type: String, mode: String, csv: String) async throws -> TestResponse {
        var body = MultipartBody()
        body.field("type", type)
        body.field("mode", mode)
        body.file("data", filename: "\(type).csv", contentType: "text/csv", bytes: Data(csv.utf8))
        let (buffer, contentType) = body.finished()
        var headers: HTTPFields = [.contentType: contentType]
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await client.execute(uri: "/api/v1/import", method: .post, headers: headers, body: buffer)
    }
}
