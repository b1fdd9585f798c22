@testable import Core
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

@Suite("Instance: v1 and v2 descriptions, custom emojis, preferences, default images")
struct InstanceTests {
    @Test("GET /api/v1/instance: domain, parseable version, streaming URL, counts, limits")
    func instanceV1() async throws {
        let t = try TestNode.make()
        defer { t.remove() }
        let (alice, _) = try await t.user("alice")
        _ = try await t.user("bob")
        // Five remote accounts on three domains (one spelt in two cases), one with a post.
        let remote = [("carol", "remote.example"), ("dave", "remote.example"), ("erin", "Remote.Example"),
                      ("frank", "other.example"), ("grace", "third.example")]
        try await t.node.database.writeSQL { db in
            for (name, domain) in remote {
                let account = Account(username: name, domain: domain, uri: "https://\(domain)/users/\(name)")
                try account.insert(db)
                if name == "frank" { try Post(uri: "https://other.example/notes/1", accountId: account.id, local: false).insert(db) }
            }
        }
        let hello = try await t.node.posts.create(.init(text: "hello"), by: alice)
        _ = try await t.node.posts.create(.init(text: "again"), by: alice)
        try await t.node.posts.delete(hello.id, by: alice)
        _ = try await t.node.posts.create(.init(text: "kept"), by: alice)
        try await t.withClient { client in
            let response = try await client.api(.get, "/api/v1/instance")
            #expect(response.status == .ok)
            let json = try #require(response.json)
            #expect(json["uri"] as? String == "social.test")
            #expect(json["title"] as? String == "FedNode")
            #expect((json["version"] as? String)?.hasPrefix("4.3.0 (compatible; FedNode ") == true)
            #expect((json["urls"] as? [String: Any])?["streaming_api"] as? String == "ws://social.test")
            let stats = try #require(json["stats"] as? [String: Int])
            // Posts: alice's two left (one deleted); the remote one is not counted.
            #expect(stats == ["user_count": 2, "status_count": 2, "domain_count": 3])
            #expect(json["registrations"] as? Bool == true)
            #expect(json["approval_required"] as? Bool == false)
            #expect(json["contact_account"] is NSNull)
            #expect((json["rules"] as? [Any])?.isEmpty == true)
            #expect(json["languages"] as? [String] == ["en"])
            let configuration = try #require(json["configuration"] as? [String: Any])
            #expect((configuration["statuses"] as? [String: Int])?["max_characters"] == 500)
            #expect((configuration["media_attachments"] as? [String: Any])?["image_size_limit"] as? Int == 16_777_216)
        }
    }

    @Test("GET /api/v2/instance: configuration, registrations and contact in the v2 shape")
    func instanceV2() async throws {
        let t = try TestNode.make { $0.openRegistrations = false; $0.nodeName = "Photos & Friends" }
        defer { t.remove() }
        try await t.withClient { client in
            let json = try #require(try await client.api(.get, "/api/v2/instance").json)
            #expect(json["domain"] as? String == "social.test")
            #expect(json["title"] as? String == "Photos & Friends")
            #expect((json["version"] as? String)?.hasPrefix("4.3.0") == true)
            #expect((json["thumbnail"] as? [String: Any])?["url"] as? String == "http://social.test/static/header.png")
            let configuration = try #require(json["configuration"] as? [String: Any])
            #expect((configuration["urls"] as? [String: Any])?["streaming"] as? String == "ws://social.test")
            #expect(configuration["accounts"] as? [String: Int] == ["max_featured_tags": 0, "max_pinned_statuses": 5])
            #expect(configuration["statuses"] as? [String: Int] == ["max_characters": 500, "max_media_attachments": 10, "characters_reserved_per_url": 23])
            let media = try #require(configuration["media_attachments"] as? [String: Any])
            #expect(media["supported_mime_types"] as? [String] == ["image/jpeg", "image/png", "image/webp", "image/gif", "image/heic", "image/avif"])
            #expect(media["image_matrix_limit"] as? Int == 40_000_000)
            #expect(media["video_size_limit"] as? Int == 0)
            // Polls are refused, so none is advertised.
            #expect((configuration["polls"] as? [String: Int])?["max_options"] == 4)
            #expect((configuration["polls"] as? [String: Int])?["min_expiration"] == 300)
            let registrations = try #require(json["registrations"] as? [String: Any])
            #expect(registrations["enabled"] as? Bool == false)
            #expect(registrations["approval_required"] as? Bool == false)
            #expect(registrations["message"] is String)
            let contact = try #require(json["contact"] as? [String: Any])
            #expect(contact["account"] is NSNull)
            #expect(contact["email"] is String)
            #expect((json["rules"] as? [Any])?.isEmpty == true)
            #expect((json["usage"] as? [String: Any])?["users"] as? [String: Int] == ["active_month": 0])
        }
    }

    @Test("trailing slashes are tolerated on API paths")
    func trailingSlashes() async throws {
        let t = try TestNode.make()
        defer { t.remove() }
        let (_, token) = try await t.user("alice")
        try await t.withClient { client in
            #expect(try await client.api(.get, "/api/v1/instance/").status == .ok)
            #expect(try await client.api(.get, "/api/v2/instance/").status == .ok)
            let me = try await client.api(.get, "/api/v1/accounts/verify_credentials/", token: token)
            #expect(me.status == .ok)
            #expect(me.json?["username"] as? String == "alice")
            let posted = try await client.api(.post, "/api/v1/statuses/", token: token, json: ["status": "slash"])
            #expect(posted.status == .ok)
        }
    }

    @Test("wss:// streaming URL for an https node")
    func secureStreaming() async throws {
        let t = try TestNode.make(domain: "photos.example") { $0.publicURL = "https://photos.example" }
        defer { t.remove() }
        try await t.withClient { client in
            let v1 = try #require(try await client.api(.get, "/api/v1/instance").json)
            #expect((v1["urls"] as? [String: Any])?["streaming_api"] as? String == "wss://photos.example")
        }
    }

    @Test("Custom emojis are an empty list; preferences need read:accounts")
    func emojisAndPreferences() async throws {
        let t = try TestNode.make()
        defer { t.remove() }
        let (_, token) = try await t.user("alice")
        let (_, writeOnly) = try await t.user("bob", scopes: "write")
        try await t.withClient { client in
            let emojis = try await client.api(.get, "/api/v1/custom_emojis")
            #expect(emojis.status == .ok)
            #expect(emojis.text == "[]")

            let preferences = try await client.api(.get, "/api/v1/preferences", token: token)
            #expect(preferences.status == .ok)
            let json = try #require(preferences.json)
            #expect(json["posting:default:visibility"] as? String == "public")
            #expect(json["posting:default:sensitive"] as? Bool == false)
            #expect(json["posting:default:language"] is NSNull)
            #expect(json["reading:expand:media"] as? String == "default")
            #expect(json["reading:expand:spoilers"] as? Bool == false)
            #expect(try await client.api(.get, "/api/v1/preferences").status == .unauthorized)
            #expect(try await client.api(.get, "/api/v1/preferences", token: writeOnly).status == .forbidden)
        }
    }

    @Test("Default avatar and header are PNGs cached for a long time")
    func defaultImages() async throws {
        let t = try TestNode.make()
        defer { t.remove() }
        try await t.withClient { client in
            for path in ["/static/avatar.png", "/static/header.png"] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/png")
                #expect(response.headers[.cacheControl]?.contains("max-age=31536000") == true)
                let bytes = [UInt8](Data(buffer: response.body))
                #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
                #expect(bytes.count > 60)
            }
        }
    }
}
