@testable import Core
import Foundation
import GRDB
import Storage
import Testing
@testable import FedNode

/// The account lifecycle across real nodes: a person deletes their account over the API and the
/// other node forgets them; lists exported on one account and imported on another give the same
/// relations (and the follows federate); the archive is a ZIP that Python's zipfile reads; an
/// email change goes through a real SMTP server.
@Suite("Account lifecycle across nodes", .serialized)
struct LifecycleFederationTests {
    static func token(_ network: NetworkNode, _ account: Account, scopes: String = "read write follow") async throws -> String {
        try await network.node.database.write { db in
            try network.node.apiAuth.issueToken(appId: nil, accountId: account.id, scopes: Scopes(scopes), in: db).token
        }
    }

    static func get(_ network: NetworkNode, _ path: String, token: String) async throws -> HTTPClientResponse {
        try await network.node.httpClient.execute(HTTPClientRequest(url: "http://\(network.domain)\(path)", headers: [("Authorization", "Bearer \(token)")]))
    }

    static func importCSV(_ network: NetworkNode, token: String, type: String, csv: Data) async throws -> HTTPClientResponse {
        let boundary = "lifecycle-\(UUID().uuidString)"
        var body = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"type\"\r\n\r\n\(type)\r\n".utf8)
        body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"data\"; filename=\"\(type).csv\"\r\nContent-Type: text/csv\r\n\r\n".utf8))
        body.append(csv)
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        return try await network.node.httpClient.execute(HTTPClientRequest(
            method: "POST", url: "http://\(network.domain)/api/v1/import",
            headers: [("Authorization", "Bearer \(token)"), ("Content-Type", "multipart/form-data; boundary=\(boundary)")], body: Array(body)))
    }

    @Test("alice@A deletes her account with her password over the API: B, where bob follows her, removes her and her posts")
    func deletionOverAPI() async throws {
        let (a, b) = (try NetworkNode(name: "selfdelete-a"), try NetworkNode(name: "selfdelete-b"))
        defer { [a, b].forEach { $0.remove() } }
        for node in [a, b] { try await node.start() }
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let bob = try await b.node.accounts.create(username: "bob", email: "bob@b.test", password: "bob password")
        try await b.node.interactions.follow(try await b.node.remoteAccounts.resolve(username: "alice", domain: a.domain), by: bob)
        try await eventually("bob follows alice") { try a.read { try Account.followersCount(of: alice.id, in: $0) } == 1 }
        let post = try await a.node.posts.create(.init(text: "Last light on the pier"), by: alice)
        try await eventually("B has alice's post") { try b.read { try Post.filter(Column("uri") == post.uri).fetchCount($0) } == 1 }

        let token = try await Self.token(a, alice)
        let wrong = try await AccountMailTests.form(a, "POST", "/api/v1/accounts/delete", [("password", "guess")], token: token)
        #expect(wrong.status == 403)
        #expect(try b.read { try Post.filter(Column("uri") == post.uri).fetchCount($0) } == 1)
        let deleted = try await AccountMailTests.form(a, "POST", "/api/v1/accounts/delete", [("password", "alice password")], token: token)
        #expect(deleted.status == 202)
        try await eventually("B removes alice and her post") {
            try b.read { db in
                try Account.filter(Column("uri") == alice.uri).fetchCount(db) == 0 && Post.filter(Column("uri") == post.uri).fetchCount(db) == 0
            }
        }
        #expect(try b.read { try HomeTimeline.page(readerId: bob.id, in: $0) }.isEmpty)
        for node in [a, b] { await node.stop() }
    }

    @Test("following, blocks and mutes exported from alice@A and imported into a fresh frank@A give the same lists; frank's follow of bob@B federates")
    func exportImportRoundTrip() async throws {
        let (a, b) = (try NetworkNode(name: "roundtrip-a"), try NetworkNode(name: "roundtrip-b"))
        defer { [a, b].forEach { $0.remove() } }
        for node in [a, b] { try await node.start() }
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let frank = try await a.node.accounts.create(username: "frank", email: "frank@a.test", password: "frank password")
        let carol = try await a.node.accounts.create(username: "carol", email: "carol@a.test", password: "carol password")
        let erin = try await a.node.accounts.create(username: "erin", email: "erin@a.test", password: "erin password")
        let bob = try await b.node.accounts.create(username: "bob", email: "bob@b.test", password: "bob password")
        _ = try await b.node.accounts.create(username: "dave", email: "dave@b.test", password: "dave password")
        try await a.node.interactions.follow(try await a.node.remoteAccounts.resolve(username: "bob", domain: b.domain), by: alice)
        try await a.node.interactions.follow(carol, by: alice)
        try await a.node.interactions.block(try await a.node.remoteAccounts.resolve(username: "dave", domain: b.domain), by: alice)
        try await a.node.database.write { db in
            try db.mutes.save(Mute(accountId: alice.id, targetAccountId: erin.id, hideNotifications: false, expiresAt: nil))
        }
        let (aliceToken, frankToken) = (try await Self.token(a, alice), try await Self.token(a, frank))

        var exported: [String: Data] = [:]
        for (list, type) in [("following", "following"), ("blocks", "blocks"), ("mutes", "mutes")] {
            let response = try await Self.get(a, "/api/v1/exports/\(list).csv", token: aliceToken)
            #expect(response.status == 200)
            exported[type] = Data(response.body)
            let imported = try await Self.importCSV(a, token: frankToken, type: type, csv: Data(response.body))
            #expect(imported.status == 202, "\(String(decoding: imported.body, as: UTF8.self))")
            #expect((AccountMailTests.json(imported)["failed"] as? [Any])?.isEmpty == true, "every row imported")
        }
        #expect(String(decoding: exported["following"] ?? Data(), as: UTF8.self).contains("bob@\(b.domain),true,false,"))
        for (list, type) in [("following", "following"), ("blocks", "blocks"), ("mutes", "mutes")] {
            let again = try await Self.get(a, "/api/v1/exports/\(list).csv", token: frankToken)
            #expect(Data(again.body) == exported[type], "frank's \(list) equal alice's")
        }
        try await eventually("B has frank's follow of bob, accepted") {
            try b.read { db in
                try Follow.filter(Column("target_account_id") == bob.id && Column("state") == "accepted").fetchCount(db) == 2
            }
        }
        for node in [a, b] { await node.stop() }
    }

    @Test("the archive is a ZIP Python's zipfile reads, with the actor, one Create per post, likes, the CSV lists and the original photos", .enabled(if: PythonInterop.available))
    func archiveReadsInPython() async throws {
        let (a, b) = (try NetworkNode(name: "archive-a"), try NetworkNode(name: "archive-b"))
        defer { [a, b].forEach { $0.remove() } }
        for node in [a, b] { try await node.start() }
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let bob = try await b.node.accounts.create(username: "bob", email: "bob@b.test", password: "bob password")
        let remoteBob = try await a.node.remoteAccounts.resolve(username: "bob", domain: b.domain)
        try await a.node.interactions.follow(remoteBob, by: alice)
        try await eventually("alice follows bob") { try b.read { try Account.followersCount(of: bob.id, in: $0) } == 1 }
        let bobPost = try await b.node.posts.create(.init(text: "Harbour fog"), by: bob)
        try await eventually("A has bob's post") { try a.read { try Post.filter(Column("uri") == bobPost.uri).fetchCount($0) } == 1 }
        let copy = try #require(try await a.node.database.read { db in try db.posts.find(uri: bobPost.uri) })
        try await a.node.interactions.like(copy.id, by: alice)

        let fixture = try Data(contentsOf: PythonInterop.root.appendingPathComponent("interop/fixtures/pier.jpg"))
        let stored = try await a.node.uploadStore.store(fixture, focus: .init(x: 0, y: 0))
        var media = MediaAttachment(accountId: alice.id)
        (media.filePath, media.thumbnailPath, media.contentType, media.width, media.height) = (stored.path, stored.thumbnailPath, stored.contentType, stored.width, stored.height)
        let upload = try await a.node.database.writeSQL { [media] db in try media.inserted(db) }
        _ = try await a.node.posts.create(.init(text: "The pier #photos", mediaIds: [upload.id]), by: alice)
        _ = try await a.node.posts.create(.init(text: "A quiet morning"), by: alice)

        let token = try await Self.token(a, alice, scopes: "read")
        let (status, output) = try await PythonInterop.run("lifecycle_archive_test.py", [
            // `--token=…` in one argument: a token can begin with "-", which argparse takes for an option.
            "--base", "http://\(a.domain)", "--token=\(token)",
            "--posts", "2", "--photos", "1", "--following", "bob@\(b.domain)", "--liked", bobPost.uri,
        ], within: 120)
        #expect(status == 0 && output.contains("ALL OK"), "archive check failed:\n\(output)")
        for node in [a, b] { await node.stop() }
    }

    @Test("an email change mails a link to the new address and a notice to the old; the address changes only when the link is opened", .enabled(if: PythonInterop.available))
    func emailChange() async throws {
        let sink = try AccountMailTests.SMTPSink()
        defer { sink.stop() }
        try await sink.waitUntilListening()
        let a = try NetworkNode(name: "email-change") { $0.mail = MailSettings(url: sink.url, from: "fednode@mail.test") }
        defer { a.remove() }
        try await a.start()
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@old.test", password: "alice password")
        _ = try await a.node.accounts.create(username: "bob", email: "bob@mail.test", password: "bob password")
        let token = try await Self.token(a, alice)
        func change(_ fields: [(String, String)]) async throws -> HTTPClientResponse {
            try await AccountMailTests.form(a, "POST", "/api/v1/user/email_change", fields, token: token)
        }

        #expect(try await change([("password", "wrong password"), ("new_email", "alice@new.test")]).status == 403)
        #expect(try await change([("password", "alice password"), ("new_email", "bob@mail.test")]).status == 422, "taken")
        #expect(try await change([("password", "alice password"), ("new_email", "not-an-address")]).status == 422)
        let accepted = try await change([("password", "alice password"), ("new_email", "alice@new.test")])
        #expect(accepted.status == 202)
        #expect(AccountMailTests.json(accepted)["email"] as? String == "alice@old.test")
        #expect(AccountMailTests.json(accepted)["unconfirmed_email"] as? String == "alice@new.test")

        try await eventually("the link and the notice arrived") { sink.messages().count == 2 }
        let link = try #require(sink.messages().first { $0.contains("To: alice@new.test") })
        let notice = try #require(sink.messages().first { $0.contains("To: alice@old.test") })
        #expect(AccountMailTests.body(of: notice).contains("change its email address"))
        let secret = try #require(AccountMailTests.linkParameter("confirmation_token", in: AccountMailTests.body(of: link)))
        #expect(try a.node.accounts.authenticate(email: "alice@old.test", password: "alice password")?.id == alice.id, "unchanged until confirmed")
        #expect(try await AccountMailTests.form(a, "GET", "/auth/confirmation?confirmation_token=\(secret)").status == 200)
        #expect(try a.node.accounts.authenticate(email: "alice@new.test", password: "alice password")?.id == alice.id)
        #expect(try a.node.accounts.authenticate(email: "alice@old.test", password: "alice password") == nil)
        let user = AccountMailTests.json(try await AccountMailTests.form(a, "GET", "/api/v1/user", token: token))
        #expect(user["email"] as? String == "alice@new.test" && user["unconfirmed_email"] is NSNull)
        await a.stop()
    }

    @Test("without an SMTP server an email change answers 503 saying so")
    func emailChangeWithoutMail() async throws {
        let a = try NetworkNode(name: "email-change-none")
        defer { a.remove() }
        try await a.start()
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@old.test", password: "alice password")
        let response = try await AccountMailTests.form(a, "POST", "/api/v1/user/email_change",
                                                       [("password", "alice password"), ("new_email", "alice@new.test")], token: try await Self.token(a, alice))
        #expect(response.status == 503 && (AccountMailTests.json(response)["error"] as? String)?.contains("cannot send email") == true)
        await a.stop()
    }
}
