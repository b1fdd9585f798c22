@testable import Core
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

@Suite("Statuses API")
struct StatusesTests {
    @Test("posting answers the Status with what was sent")
    func create() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, token) = try await t.user("alice")
        try await t.withClient { client async throws in
            let media = try await StatusFixtures.uploadedMedia(client, token: token)
            let r = try await client.api(.post, "/api/v1/statuses", token: token, json: [
                "status": "Harbour at dawn #boats", "visibility": "unlisted", "spoiler_text": "bright", "language": "en",
                "media_ids": [media],
            ])
            #expect(r.status == .ok)
            let status = try r.entity(APIStatus.self)
            #expect(status.content.contains("Harbour at dawn"))
            #expect(status.visibility == "unlisted")
            #expect(status.spoilerText == "bright")
            #expect(status.sensitive)
            #expect(status.language == "en")
            #expect(status.account.id == String(alice.id))
            #expect(status.mediaAttachments.map(\.id) == [media])
            #expect(status.mediaAttachments.first?.description == "A harbour")
            #expect(status.tags.map(\.name) == ["boats"])
            #expect(status.favourited == false)
        }
    }

    @Test("posting needs a token with write:statuses")
    func createAuth() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, readOnly) = try await t.user("alice", scopes: "read")
        try await t.withClient { client async throws in
            #expect(try await client.api(.post, "/api/v1/statuses", json: ["status": "hi"]).status == .unauthorized)
            #expect(try await client.api(.post, "/api/v1/statuses", token: "not-a-token", json: ["status": "hi"]).status == .unauthorized)
            let forbidden = try await client.api(.post, "/api/v1/statuses", token: readOnly, json: ["status": "hi"])
            #expect(forbidden.status == .forbidden)
            #expect(forbidden.json?["error"] as? String == "This action is outside the authorized scopes")
        }
        #expect(try StatusFixtures.read(t.node) { try Post.fetchCount($0) } == 0)
    }

    @Test("invalid posts are refused with 422 and nothing is stored")
    func createInvalid() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        let (_, bobToken) = try await t.user("bob")
        try await t.withClient { client async throws in
            let bobMedia = try await StatusFixtures.uploadedMedia(client, token: bobToken)
            let attached = try await StatusFixtures.uploadedMedia(client, token: token)
            _ = try await StatusFixtures.post(client, token: token, "first", extra: ["media_ids": [attached]])
            let before = try StatusFixtures.read(t.node) { try Post.fetchCount($0) }
            let cases: [([String: Any], String)] = [
                (["status": "   "], "Validation failed: Text can't be blank"),
                (["status": String(repeating: "a", count: 501)], "Validation failed: Text character limit of 500 exceeded"),
                (["status": String(repeating: "a", count: 490), "spoiler_text": "twelve chars"], "Validation failed: Text character limit of 500 exceeded"),
                (["status": "hi", "visibility": "everyone"], "'everyone' is not a valid visibility"),
                (["status": "hi", "media_ids": [bobMedia]], "Media \(bobMedia) not found"),
                (["status": "hi", "media_ids": [attached]], "Media \(attached) not found"),
                (["status": "hi", "media_ids": ["12x"]], "Media 12x not found"),
                (["status": "hi", "media_ids": (1...11).map(String.init)], "Cannot attach more than 10 files"),
            ]
            for (body, message) in cases {
                let r = try await client.api(.post, "/api/v1/statuses", token: token, json: body)
                #expect(r.status == .unprocessableContent, "\(body)")
                #expect(r.json?["error"] as? String == message)
            }
            #expect(try StatusFixtures.read(t.node) { try Post.fetchCount($0) } == before)
            // A link counts as 23 characters, so a long URL fits.
            let long = "https://example.com/" + String(repeating: "x", count: 600)
            #expect(try await client.api(.post, "/api/v1/statuses", token: token, json: ["status": "see \(long)"]).status == .ok)
        }
    }

    @Test("hostile JSON bodies get 400 with a JSON error, not a crash: deep nesting, numbers out of range")
    func hostileJSON() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        try await t.withClient { client async throws in
            let deep = #"{"status":"# + String(repeating: "[", count: 200_000) + String(repeating: "]", count: 200_000) + "}"
            let bodies = [deep, #"{"status":"hi","media_ids":[1e999999]}"#, #"{"status":"hi","in_reply_to_id":-9223372036854775809}"#,
                          #"{"status":"hi","media_ids":[{"a":{"b":[[["c"]]]}}]}"#]
            for body in bodies {
                let r = try await client.execute(uri: "/api/v1/statuses", method: .post,
                                                 headers: [.authorization: "Bearer \(token)", .contentType: "application/json"],
                                                 body: ByteBuffer(string: body))
                #expect((400..<500).contains(Int(r.status.code)), "\(body.suffix(60)) answered \(r.status.code)")
                #expect(r.json?["error"] is String)
            }
            #expect(try StatusFixtures.read(t.node) { try Post.fetchCount($0) } == 0)
        }
    }

    @Test("a NUL character in a caption, a name, a list title or a filter is no 500 on either database: the rest is kept")
    func nulCharacters() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        try await t.withClient { client async throws in
            let posted = try await client.api(.post, "/api/v1/statuses", token: token, json: ["status": "harbour\u{0}lights", "spoiler_text": "x\u{0}"])
            #expect(posted.status == .ok)
            let status = try posted.entity(APIStatus.self)
            // Read back as stored: the NUL dropped, the rest kept, on SQLite (which would cut
            // the text there) and on PostgreSQL (which would refuse it) alike.
            let source = try await client.api(.get, "/api/v1/statuses/\(status.id)/source", token: token)
            #expect(source.json?["text"] as? String == "harbourlights")
            #expect(source.json?["spoiler_text"] as? String == "x")
            let named = try await client.api(.patch, "/api/v1/accounts/update_credentials", token: token, json: ["display_name": "Al\u{0}ice"])
            #expect(try named.entity(APIAccount.self).displayName == "Alice")
            #expect(try await client.api(.get, "/api/v1/notifications?types[]=%00&exclude_types[]=a%00", token: token).status == .ok)
            #expect(try await client.api(.post, "/api/v1/lists", token: token, json: ["title": "Pi\u{0}ers"]).status == .ok)
            #expect(try await client.api(.post, "/api/v2/filters", token: token, json: ["title": "f\u{0}", "context": ["home"]]).status == .ok)
            let form = try await client.api(.post, "/api/v1/statuses", token: token, form: "status=form%00nul")
            #expect(try form.entity(APIStatus.self).content.contains("formnul"))
            // A NUL followed by a combining mark makes one character with it; it is dropped all the same.
            let combining = try await client.api(.post, "/api/v1/statuses", token: token, form: "status=pier%00%CC%81s")
            let combined = try await client.api(.get, "/api/v1/statuses/\(try combining.entity(APIStatus.self).id)/source", token: token)
            #expect(combined.json?["text"] as? String == "pier\u{301}s")
        }
        // A remote post carrying one is stored as the inbox stores it.
        let remote = try await StatusFixtures.remoteAccount("nul\u{0}er", in: t.node)
        let stored = try await StatusFixtures.remotePost(by: remote, text: "remote\u{0}post", in: t.node)
        #expect(try StatusFixtures.read(t.node) { try Post.fetchOne($0, key: stored.id) } != nil)
    }

    @Test("a photo without a caption is a valid post")
    func mediaOnly() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        try await t.withClient { client async throws in
            let media = try await StatusFixtures.uploadedMedia(client, token: token)
            let r = try await client.api(.post, "/api/v1/statuses", token: token, form: "media_ids[]=\(media)")
            #expect(r.status == .ok)
            #expect(try r.entity(APIStatus.self).mediaAttachments.count == 1)
        }
    }

    @Test("the same Idempotency-Key posts once and answers the same status")
    func idempotency() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, token) = try await t.user("alice")
        let (_, bobToken) = try await t.user("bob")
        try await t.withClient { client async throws in
            let media = try await StatusFixtures.uploadedMedia(client, token: token)
            let body: [String: Any] = ["status": "only once", "media_ids": [media]]
            let first = try await client.api(.post, "/api/v1/statuses", token: token, json: body, headers: [.idempotencyKey: "key-1"])
            let second = try await client.api(.post, "/api/v1/statuses", token: token, json: body, headers: [.idempotencyKey: "key-1"])
            #expect(first.status == .ok)
            #expect(second.status == .ok)
            #expect(first.json?["id"] as? String == second.json?["id"] as? String)
            #expect(try StatusFixtures.read(t.node) { try Post.filter(Column("account_id") == alice.id).fetchCount($0) } == 1)
            let other = try await client.api(.post, "/api/v1/statuses", token: token, json: ["status": "only once"], headers: [.idempotencyKey: "key-2"])
            #expect(other.json?["id"] as? String != first.json?["id"] as? String)
            // Keys belong to one account.
            let bobs = try await client.api(.post, "/api/v1/statuses", token: bobToken, json: ["status": "mine"], headers: [.idempotencyKey: "key-1"])
            #expect(bobs.status == .ok)
            #expect(bobs.json?["id"] as? String != first.json?["id"] as? String)
        }
        // A key older than an hour no longer answers.
        try await t.node.database.writeSQL { try $0.execute(sql: "UPDATE idempotency_keys SET created_at = '2000-01-01 00:00:00.000'") }
        try await t.withClient { client async throws in
            let again = try await client.api(.post, "/api/v1/statuses", token: token, json: ["status": "only once"], headers: [.idempotencyKey: "key-1"])
            #expect(again.status == .ok)
        }
        #expect(try StatusFixtures.read(t.node) { try Post.filter(Column("account_id") == alice.id).fetchCount($0) } == 3)
    }

    @Test("a comment needs a parent the author may see")
    func replies() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, aliceToken) = try await t.user("alice")
        let (_, bobToken) = try await t.user("bob")
        try await t.withClient { client async throws in
            let open = try await StatusFixtures.post(client, token: aliceToken, "open")
            let hidden = try await StatusFixtures.post(client, token: aliceToken, "followers only", visibility: "private")
            let reply = try await client.api(.post, "/api/v1/statuses", token: bobToken, json: ["status": "nice", "in_reply_to_id": open])
            #expect(reply.status == .ok)
            #expect(reply.json?["in_reply_to_id"] as? String == open)
            for parent in [hidden, "12345"] {
                let r = try await client.api(.post, "/api/v1/statuses", token: bobToken, json: ["status": "nice", "in_reply_to_id": parent])
                #expect(r.status == .notFound)
                #expect(r.json?["error"] as? String == "The post you are trying to reply to does not appear to exist.")
            }
        }
    }

    @Test("GET /:id shows visible posts, also anonymously, and hides the rest")
    func show() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (carol, carolToken) = try await t.user("carol")
        let (_, bobToken) = try await t.user("bob")
        let (_, writeOnly) = try await t.user("dave", scopes: "write")
        try await t.node.interactions.follow(alice, by: carol)
        try await t.withClient { client async throws in
            let open = try await StatusFixtures.post(client, token: aliceToken, "open")
            let hidden = try await StatusFixtures.post(client, token: aliceToken, "followers only", visibility: "private")
            let anonymous = try await client.api(.get, "/api/v1/statuses/\(open)")
            #expect(anonymous.status == .ok)
            #expect(anonymous.json?["favourited"] == nil)
            #expect(try await client.api(.get, "/api/v1/statuses/\(hidden)").status == .notFound)
            #expect(try await client.api(.get, "/api/v1/statuses/\(hidden)", token: bobToken).status == .notFound)
            #expect(try await client.api(.get, "/api/v1/statuses/\(hidden)", token: carolToken).status == .ok)
            #expect(try await client.api(.get, "/api/v1/statuses/\(hidden)", token: aliceToken).status == .ok)
            #expect(try await client.api(.get, "/api/v1/statuses/999999").status == .notFound)
            #expect(try await client.api(.get, "/api/v1/statuses/abc").status == .notFound)
            #expect(try await client.api(.get, "/api/v1/statuses/\(open)", token: "bogus").status == .unauthorized)
            #expect(try await client.api(.get, "/api/v1/statuses/\(open)", token: writeOnly).status == .forbidden)
            // carol blocks alice: alice's posts vanish for carol and carol's for alice.
            try await t.node.interactions.block(alice, by: carol)
            #expect(try await client.api(.get, "/api/v1/statuses/\(open)", token: carolToken).status == .notFound)
            let carols = try await StatusFixtures.post(client, token: carolToken, "mine")
            #expect(try await client.api(.get, "/api/v1/statuses/\(carols)", token: aliceToken).status == .notFound)
        }
    }

    @Test("GET ?id[]= gives the visible posts of those asked, in their order; more than 20 ids are refused")
    func index() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (carol, carolToken) = try await t.user("carol")
        let (_, bobToken) = try await t.user("bob")
        try await t.node.interactions.follow(alice, by: carol)
        try await t.withClient { client async throws in
            let first = try await StatusFixtures.post(client, token: aliceToken, "first")
            let hidden = try await StatusFixtures.post(client, token: aliceToken, "followers only", visibility: "private")
            let second = try await StatusFixtures.post(client, token: aliceToken, "second")
            let asked = "id[]=\(second)&id[]=\(hidden)&id[]=999999&id[]=abc&id[]=\(first)&id[]=\(second)"
            func ids(_ token: String?) async throws -> [String]? {
                try await client.api(.get, "/api/v1/statuses?\(asked)", token: token).jsonArray?.compactMap { $0["id"] as? String }
            }
            #expect(try await ids(carolToken) == [second, hidden, first])
            #expect(try await ids(bobToken) == [second, first])
            #expect(try await ids(nil) == [second, first])
            #expect(try await client.api(.get, "/api/v1/statuses", token: bobToken).text == "[]")
            let many = (1...21).map { "id[]=\($0)" }.joined(separator: "&")
            let refused = try await client.api(.get, "/api/v1/statuses?\(many)", token: bobToken)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.json?["error"] != nil)
            let direct = try await StatusFixtures.post(client, token: aliceToken, "@carol just for you", visibility: "direct")
            let both = "/api/v1/statuses?id[]=\(direct)&id[]=\(first)"
            #expect(try await client.api(.get, both, token: carolToken).jsonArray?.compactMap { $0["id"] as? String } == [direct, first])
            #expect(try await client.api(.get, both, token: bobToken).jsonArray?.compactMap { $0["id"] as? String } == [first])
            // Muted, as on Mastodon, her posts are left out for bob; then carol blocks her.
            let muted = try await client.api(.post, "/api/v1/accounts/\(alice.id)/mute", token: bobToken)
            #expect(muted.status == .ok)
            #expect(try await ids(bobToken) == [])
            // Bob's own post stays his to fetch, even when it mentions the account he mutes.
            let own = try await StatusFixtures.post(client, token: bobToken, "@alice nice photos")
            #expect(try await client.api(.get, "/api/v1/statuses?id[]=\(own)", token: bobToken).jsonArray?.count == 1)
            try await t.node.interactions.block(alice, by: carol)
            #expect(try await ids(carolToken) == [])
        }
    }

    @Test("editing changes one's own post; others' are 403, unknown ones 404")
    func edit() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, aliceToken) = try await t.user("alice")
        let (_, bobToken) = try await t.user("bob")
        try await t.withClient { client async throws in
            let id = try await StatusFixtures.post(client, token: aliceToken, "first words #old")
            let media = try await StatusFixtures.uploadedMedia(client, token: aliceToken)
            let r = try await client.api(.put, "/api/v1/statuses/\(id)", token: aliceToken, json: [
                "status": "second words #new", "spoiler_text": "cw", "language": "de", "media_ids": [media],
            ])
            #expect(r.status == .ok)
            let status = try r.entity(APIStatus.self)
            #expect(status.content.contains("second words"))
            #expect(status.editedAt != nil)
            #expect(status.spoilerText == "cw")
            #expect(status.sensitive)
            #expect(status.language == "de")
            #expect(status.tags.map(\.name) == ["new"])
            #expect(status.mediaAttachments.map(\.id) == [media])
            // The caption can go when a photo stays.
            let captionless = try await client.api(.put, "/api/v1/statuses/\(id)", token: aliceToken, json: ["status": ""])
            #expect(captionless.status == .ok)
            let bobs = try await client.api(.put, "/api/v1/statuses/\(id)", token: bobToken, json: ["status": "mine now"])
            #expect(bobs.status == .forbidden)
            #expect(try await client.api(.put, "/api/v1/statuses/424242", token: aliceToken, json: ["status": "x"]).status == .notFound)
            #expect(try await client.api(.put, "/api/v1/statuses/\(id)", json: ["status": "x"]).status == .unauthorized)
            let tooLong = try await client.api(.put, "/api/v1/statuses/\(id)", token: aliceToken, json: ["status": String(repeating: "b", count: 501)])
            #expect(tooLong.status == .unprocessableContent)
            let noCaption = try await StatusFixtures.post(client, token: aliceToken, "text only")
            let blank = try await client.api(.put, "/api/v1/statuses/\(noCaption)", token: aliceToken, json: ["status": " "])
            #expect(blank.status == .unprocessableContent)
        }
    }

    @Test("deleting answers the status with its text and removes it everywhere")
    func delete() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (bob, bobToken) = try await t.user("bob")
        try await t.node.interactions.follow(alice, by: bob)
        try await t.withClient { client async throws in
            let parent = try await StatusFixtures.post(client, token: aliceToken, "parent")
            let id = try await StatusFixtures.post(client, token: aliceToken, "Gone soon #ephemeral", extra: ["in_reply_to_id": parent])
            #expect(try await client.api(.delete, "/api/v1/statuses/\(id)", token: bobToken).status == .forbidden)
            #expect(try await client.api(.delete, "/api/v1/statuses/\(id)").status == .unauthorized)
            let r = try await client.api(.delete, "/api/v1/statuses/\(id)", token: aliceToken)
            #expect(r.status == .ok)
            #expect(r.json?["text"] as? String == "Gone soon #ephemeral")
            #expect(r.json?["id"] as? String == id)
            #expect(try await client.api(.get, "/api/v1/statuses/\(id)", token: aliceToken).status == .notFound)
            #expect(try await client.api(.delete, "/api/v1/statuses/\(id)", token: aliceToken).status == .notFound)
            let home = try await client.api(.get, "/api/v1/timelines/home", token: bobToken)
            #expect(StatusFixtures.ids(home) == [parent])
            #expect(!StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/public")).contains(id))
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/tag/ephemeral")).isEmpty)
            let context = try await client.api(.get, "/api/v1/statuses/\(parent)/context")
            #expect((context.json?["descendants"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("context lists ancestors oldest first and comments in thread order, visible ones only")
    func context() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (_, bobToken) = try await t.user("bob")
        let (carol, carolToken) = try await t.user("carol")
        try await t.withClient { client async throws in
            let root = try await StatusFixtures.post(client, token: aliceToken, "root")
            let first = try await StatusFixtures.post(client, token: bobToken, "first", extra: ["in_reply_to_id": root])
            let second = try await StatusFixtures.post(client, token: carolToken, "second", extra: ["in_reply_to_id": root])
            let firstReply = try await StatusFixtures.post(client, token: aliceToken, "reply to first", extra: ["in_reply_to_id": first])
            let hidden = try await StatusFixtures.post(client, token: aliceToken, "followers only", visibility: "private",
                                                       extra: ["in_reply_to_id": second])
            let r = try await client.api(.get, "/api/v1/statuses/\(firstReply)/context")
            #expect(r.status == .ok)
            let thread = try r.entity(APIContext.self)
            #expect(thread.ancestors.map(\.id) == [root, first])
            #expect(thread.descendants.isEmpty)
            let anonymous = try await client.api(.get, "/api/v1/statuses/\(root)/context").entity(APIContext.self)
            #expect(anonymous.descendants.map(\.id) == [first, firstReply, second])
            let own = try await client.api(.get, "/api/v1/statuses/\(root)/context", token: aliceToken).entity(APIContext.self)
            #expect(own.descendants.map(\.id) == [first, firstReply, second, hidden])
            // A block hides the blocker's posts from the thread.
            try await t.node.interactions.block(alice, by: carol)
            let blocked = try await client.api(.get, "/api/v1/statuses/\(root)/context", token: aliceToken).entity(APIContext.self)
            #expect(blocked.descendants.map(\.id) == [first, firstReply, hidden])
            #expect(try await client.api(.get, "/api/v1/statuses/\(root)/context", token: carolToken).status == .notFound)
            #expect(try await client.api(.get, "/api/v1/statuses/\(hidden)/context").status == .notFound)
        }
    }
}
