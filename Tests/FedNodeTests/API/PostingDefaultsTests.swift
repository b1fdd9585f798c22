@testable import Core
import Foundation
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// Posting defaults: `source[privacy]`, `source[sensitive]` and `source[language]` through
/// update_credentials, shown in `source` and `/api/v1/preferences`, and applied to new posts.
@Suite("Client API: posting defaults")
struct PostingDefaultsTests {
    @Test("defaults are stored, shown, applied when a post leaves them out, and overridden when it says")
    func storedShownApplied() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        try await t.withClient { client async throws in
            let saved = try await client.api(.patch, "/api/v1/accounts/update_credentials", token: token,
                                             json: ["source": ["privacy": "unlisted", "sensitive": true, "language": "fr"]])
            #expect(saved.status == .ok)
            let source = try #require(saved.json?["source"] as? [String: Any])
            #expect(source["privacy"] as? String == "unlisted")
            #expect(source["sensitive"] as? Bool == true)
            #expect(source["language"] as? String == "fr")

            let preferences = try #require(try await client.api(.get, "/api/v1/preferences", token: token).json)
            #expect(preferences["posting:default:visibility"] as? String == "unlisted")
            #expect(preferences["posting:default:sensitive"] as? Bool == true)
            #expect(preferences["posting:default:language"] as? String == "fr")

            let plain = try await client.api(.post, "/api/v1/statuses", token: token, json: ["status": "Morning light"])
            #expect(plain.json?["visibility"] as? String == "unlisted")
            #expect(plain.json?["sensitive"] as? Bool == true)
            #expect(plain.json?["language"] as? String == "fr")
            let explicit = try await client.api(.post, "/api/v1/statuses", token: token,
                                                json: ["status": "Evening", "visibility": "public", "sensitive": false, "language": "en"])
            #expect(explicit.json?["visibility"] as? String == "public")
            #expect(explicit.json?["sensitive"] as? Bool == false)
            #expect(explicit.json?["language"] as? String == "en")

            // Form-encoded, as Tusky sends them; an empty language clears it.
            let form = try await client.api(.patch, "/api/v1/accounts/update_credentials", token: token,
                                            form: "source%5Bprivacy%5D=private&source%5Blanguage%5D=")
            #expect(form.status == .ok)
            let formSource = try #require(form.json?["source"] as? [String: Any])
            #expect(formSource["privacy"] as? String == "private")
            #expect(formSource["sensitive"] as? Bool == true)
            #expect(formSource["language"] is NSNull)
        }
    }

    @Test("a direct or unknown default visibility and a malformed language are refused, changing nothing")
    func refused() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        try await t.withClient { client async throws in
            for body: [String: Any] in [["source": ["privacy": "direct"]], ["source": ["privacy": "friends"]],
                                        ["source": ["language": "français"]], ["source": ["privacy": "unlisted", "language": "x"]]] {
                let response = try await client.api(.patch, "/api/v1/accounts/update_credentials", token: token, json: body)
                #expect(response.status == .unprocessableContent, "\(body)")
                #expect(response.json?["error"] is String)
            }
            let me = try await client.api(.get, "/api/v1/accounts/verify_credentials", token: token)
            #expect((me.json?["source"] as? [String: Any])?["privacy"] as? String == "public")
        }
    }

    @Test("the credential account has its role; staff show a role badge, others none")
    func roles() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (ada, adaToken) = try await t.user("ada")
        let (_, bobToken) = try await t.user("bob")
        try t.node.accounts.setRole("admin", of: ada.username)
        try await t.withClient { client async throws in
            let me = try #require(try await client.api(.get, "/api/v1/accounts/verify_credentials", token: adaToken).json)
            #expect((me["role"] as? [String: Any])?["name"] as? String == "Admin")
            #expect((me["roles"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Admin"])
            #expect(me["noindex"] as? Bool == false)
            #expect(me["indexable"] as? Bool == true)
            #expect(me["hide_collections"] as? Bool == false)
            let bob = try #require(try await client.api(.get, "/api/v1/accounts/verify_credentials", token: bobToken).json)
            #expect((bob["role"] as? [String: Any])?["id"] as? String == "-99")
            #expect((bob["roles"] as? [Any])?.isEmpty == true)
            let adaSeenByBob = try #require(try await client.api(.get, "/api/v1/accounts/\(ada.id)", token: bobToken).json)
            #expect((adaSeenByBob["roles"] as? [[String: Any]])?.first?["name"] as? String == "Admin")
            #expect(adaSeenByBob["role"] == nil)
        }
    }
}
