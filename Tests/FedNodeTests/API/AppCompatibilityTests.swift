@testable import Core
import Foundation
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// The smaller calls apps make at start or in their menus: the instance's peers, languages and
/// documents, OpenID's userinfo, and the relationship's mute end.
@Suite("Client API: instance documents, userinfo, relationship details")
struct AppCompatibilityTests {
    @Test("peers list known domains without blocked ones; languages, extended description; unpublished documents are 404")
    func instanceDocuments() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        _ = try await StatusFixtures.remoteAccount("zoe", domain: "photos.example", in: t.node)
        _ = try await StatusFixtures.remoteAccount("yan", domain: "Pics.Example", in: t.node)
        _ = try await StatusFixtures.remoteAccount("bad", domain: "spam.example", in: t.node)
        _ = try await DomainPolicyService(node: t.node).block("spam.example", .init(severity: "suspend"))
        try await t.withClient { client in
            let peers = try await client.api(.get, "/api/v1/instance/peers")
            #expect(peers.status == .ok)
            #expect((try JSONSerialization.jsonObject(with: Data(buffer: peers.body)) as? [String]) == ["photos.example", "pics.example"])
            let languages = try await client.api(.get, "/api/v1/instance/languages")
            #expect(languages.jsonArray?.first?["code"] as? String == "en")
            let extended = try #require(try await client.api(.get, "/api/v1/instance/extended_description").json)
            #expect(extended["content"] as? String == "" && extended["updated_at"] is NSNull)
            for path in ["/api/v1/instance/privacy_policy", "/api/v1/instance/terms_of_service"] {
                let response = try await client.api(.get, path)
                #expect(response.status == .notFound && response.json?["error"] is String, "\(path)")
            }
            let v2 = try #require(try await client.api(.get, "/api/v2/instance").json)
            let urls = try #require((v2["configuration"] as? [String: Any])?["urls"] as? [String: Any])
            #expect(urls["about"] as? String == "\(t.node.urls.base)/" && urls["terms_of_service"] is NSNull)
            let registrations = try #require(v2["registrations"] as? [String: Any])
            #expect(registrations["reason_required"] as? Bool == false && registrations["min_age"] is NSNull)
        }
    }

    @Test("oauth/userinfo answers who the token acts for, with profile or read:accounts; the metadata names it")
    func userInfo() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, token) = try await t.user("alice")
        let (_, profileOnly) = try await t.user("bob", scopes: "profile")
        let (_, writeOnly) = try await t.user("carol", scopes: "write")
        try await t.withClient { client in
            let info = try #require(try await client.api(.get, "/oauth/userinfo", token: token).json)
            #expect(info["sub"] as? String == alice.uri && info["preferred_username"] as? String == "alice")
            #expect(info["iss"] as? String == "\(t.node.urls.base)/" && info["picture"] is String && info["profile"] is String)
            #expect(try await client.api(.post, "/oauth/userinfo", token: profileOnly).json?["preferred_username"] as? String == "bob")
            #expect(try await client.api(.get, "/oauth/userinfo", token: writeOnly).status == .forbidden)
            #expect(try await client.api(.get, "/oauth/userinfo").status == .unauthorized)
            let metadata = try #require(try await client.api(.get, "/.well-known/oauth-authorization-server").json)
            #expect(metadata["userinfo_endpoint"] as? String == "\(t.node.urls.base)/oauth/userinfo")
        }
    }

    @Test("the relationship tells when a mute ends, and null for a mute without end")
    func muteEnd() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        let (bob, _) = try await t.user("bob")
        let (carol, _) = try await t.user("carol")
        try await t.withClient { client in
            let timed = try await client.api(.post, "/api/v1/accounts/\(bob.id)/mute", token: token, json: ["duration": 3600])
            #expect(timed.json?["muting_expires_at"] is String)
            let forever = try await client.api(.post, "/api/v1/accounts/\(carol.id)/mute", token: token)
            #expect(forever.json?["muting_expires_at"] is NSNull)
            let unmuted = try await client.api(.post, "/api/v1/accounts/\(bob.id)/unmute", token: token)
            #expect(unmuted.json?["muting_expires_at"] is NSNull)
        }
    }
}
