@testable import Core
import Foundation
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// Edit history and source over HTTP.
@Suite("Client API: status history and source")
struct StatusHistoryTests {
    @Test("history lists the original first, then each edit, with StatusEdit's fields; edited_at is set")
    func historyOfEdits() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        try await t.withLiveClient { client async throws in
            let media = try await StatusFixtures.uploadedMedia(client, token: aliceToken, description: "A red boat")
            let id = try await StatusFixtures.post(client, token: aliceToken, "Harbour #boats", extra: ["media_ids": [media]])
            let never = try await client.api(.get, "/api/v1/statuses/\(id)/history")
            #expect(never.status == .ok)
            #expect((never.jsonArray ?? []).count == 1, "a post never edited has itself as its only version")

            let first = try await client.api(.put, "/api/v1/statuses/\(id)", token: aliceToken,
                                             json: ["status": "Harbour at dusk", "spoiler_text": "Sunset", "media_ids": [media]])
            #expect(first.status == .ok)
            #expect(first.json?["edited_at"] is String)
            _ = try await client.api(.put, "/api/v1/statuses/\(id)", token: aliceToken,
                                     json: ["status": "Harbour at night", "media_ids": [media],
                                            "media_attributes": [["id": media, "description": "A blue boat"]]])

            let history = try await client.api(.get, "/api/v1/statuses/\(id)/history")
            let versions = try #require(history.jsonArray)
            #expect(versions.count == 3)
            #expect(versions.map { ($0["content"] as? String)?.contains("Harbour") == true } == [true, true, true])
            #expect((versions[0]["content"] as? String)?.contains("#<span>boats</span>") == true)
            #expect((versions[1]["content"] as? String)?.contains("at dusk") == true)
            #expect((versions[2]["content"] as? String)?.contains("at night") == true)
            #expect(versions.map { $0["spoiler_text"] as? String } == ["", "Sunset", "Sunset"])
            // A content warning makes the media sensitive, as Mastodon's edit does.
            #expect(versions.map { $0["sensitive"] as? Bool } == [false, true, true])
            let descriptions = versions.map { ($0["media_attachments"] as? [[String: Any]])?.map { $0["description"] as? String } }
            #expect(descriptions == [["A red boat"], ["A red boat"], ["A blue boat"]])
            #expect(versions.allSatisfy { $0["poll"] is NSNull && ($0["emojis"] as? [Any])?.isEmpty == true })
            #expect(versions.allSatisfy { ($0["account"] as? [String: Any])?["id"] as? String == String(alice.id) })
            let created = try #require(try await client.api(.get, "/api/v1/statuses/\(id)").json?["created_at"] as? String)
            #expect(versions[0]["created_at"] as? String == created)
            let times = versions.compactMap { $0["created_at"] as? String }
            #expect(times == times.sorted() && times.count == 3)
        }
    }

    @Test("a version stored in the older form (client-API attachments as JSON) still shows its photos")
    func historyOfOlderVersions() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, aliceToken) = try await t.user("alice")
        try await t.withLiveClient { client async throws in
            let media = try await StatusFixtures.uploadedMedia(client, token: aliceToken, description: "A red boat")
            let id = try await StatusFixtures.post(client, token: aliceToken, "Harbour", extra: ["media_ids": [media]])
            let postId = try #require(Int64(id))
            let node = t.node
            try await node.database.write { db in
                let post = try #require(try db.posts.find(id: postId))
                var old = try EntityRenderer(node: node, viewer: nil, db: db).media(of: postId)
                old[0].description = "Described before the rows were kept"
                let json = String(decoding: try APIResponse.encoder().encode(old), as: UTF8.self)
                try db.postEdits.add(PostEdit(postId: postId, content: post.content, spoilerText: "", sensitive: false,
                                              media: json, createdAt: post.createdAt))
            }
            _ = try await client.api(.put, "/api/v1/statuses/\(id)", token: aliceToken,
                                     json: ["status": "Harbour at night", "media_ids": [media]])

            let versions = try #require(try await client.api(.get, "/api/v1/statuses/\(id)/history").jsonArray)
            let descriptions = versions.map { ($0["media_attachments"] as? [[String: Any]])?.map { $0["description"] as? String } }
            #expect(descriptions == [["Described before the rows were kept"], ["A red boat"]])
            let urls = versions.map { ($0["media_attachments"] as? [[String: Any]])?.first?["url"] as? String }
            #expect(urls[0] != nil && urls[0] == urls[1], "both forms name the same stored file")
        }
    }

    @Test("source gives the text as typed and the content warning; history and source follow visibility")
    func sourceAndVisibility() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, aliceToken) = try await t.user("alice")
        let (_, bobToken) = try await t.user("bob")
        let (_, noRead) = try await t.user("carol", scopes: "write")
        try await t.withLiveClient { client async throws in
            let id = try await StatusFixtures.post(client, token: aliceToken, "Fog & #boats", extra: ["spoiler_text": "Grey"])
            let source = try await client.api(.get, "/api/v1/statuses/\(id)/source", token: aliceToken)
            #expect(source.status == .ok)
            #expect(source.json as NSDictionary? == ["id": id, "text": "Fog & #boats", "spoiler_text": "Grey"] as NSDictionary)
            #expect(try await client.api(.get, "/api/v1/statuses/\(id)/source").status == .unauthorized)
            #expect(try await client.api(.get, "/api/v1/statuses/\(id)/source", token: noRead).status == .forbidden)
            #expect(try await client.api(.get, "/api/v1/statuses/\(id)/history", token: noRead).status == .forbidden)

            let hidden = try await StatusFixtures.post(client, token: aliceToken, "Followers only", visibility: "private")
            #expect(try await client.api(.get, "/api/v1/statuses/\(hidden)/history", token: bobToken).status == .notFound)
            #expect(try await client.api(.get, "/api/v1/statuses/\(hidden)/history").status == .notFound)
            #expect(try await client.api(.get, "/api/v1/statuses/\(hidden)/source", token: bobToken).status == .notFound)
            #expect(try await client.api(.get, "/api/v1/statuses/\(hidden)/history", token: aliceToken).status == .ok)
            #expect(try await client.api(.get, "/api/v1/statuses/xyz/history").status == .notFound)
        }
    }
}
