@testable import Core
import Foundation
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// Read markers over HTTP.
@Suite("Client API: markers")
struct MarkersTests {
    @Test("markers save from form and JSON bodies, raise their version, and are read back by timeline")
    func saveAndRead() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        let (_, otherToken) = try await t.user("bob")
        try await t.withLiveClient { client async throws in
            let get = "/api/v1/markers?timeline[]=home&timeline[]=notifications"
            #expect(try await client.api(.get, get, token: token).json?.isEmpty == true)

            let saved = try await client.api(.post, "/api/v1/markers", token: token, form: "home%5Blast_read_id%5D=103")
            #expect(saved.status == .ok)
            let home = try #require(saved.json?["home"] as? [String: Any])
            #expect(home["last_read_id"] as? String == "103" && home["version"] as? Int == 1)
            #expect(home["updated_at"] is String)
            #expect(saved.json?["notifications"] == nil)

            let again = try await client.api(.post, "/api/v1/markers", token: token,
                                             json: ["home": ["last_read_id": "110"], "notifications": ["last_read_id": "7"]])
            let both = try #require(again.json)
            #expect((both["home"] as? [String: Any])?["version"] as? Int == 2)
            #expect((both["notifications"] as? [String: Any])?["version"] as? Int == 1)

            let read = try #require(try await client.api(.get, get + "&timeline[]=lists", token: token).json)
            #expect(Set(read.keys) == ["home", "notifications"])
            #expect((read["home"] as? [String: Any])?["last_read_id"] as? String == "110")
            let onlyHome = try await client.api(.get, "/api/v1/markers?timeline[]=home", token: token)
            #expect(onlyHome.json?.keys.sorted() == ["home"])
            #expect(try await client.api(.get, get, token: otherToken).json?.isEmpty == true, "markers are per account")
        }
    }

    @Test("markers refuse bodies without a valid position with 422, and need tokens with statuses scopes")
    func refusals() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        let (_, readOnly) = try await t.user("bob", scopes: "read")
        try await t.withLiveClient { client async throws in
            #expect(try await client.api(.post, "/api/v1/markers", token: token, json: [:]).status == .unprocessableContent)
            #expect(try await client.api(.post, "/api/v1/markers", token: token, json: ["lists": ["last_read_id": "5"]]).status == .unprocessableContent)
            #expect(try await client.api(.post, "/api/v1/markers", token: token, form: "home[last_read_id]=abc").status == .unprocessableContent)
            #expect(try await client.api(.post, "/api/v1/markers", token: readOnly, form: "home[last_read_id]=5").status == .forbidden)
            #expect(try await client.api(.get, "/api/v1/markers?timeline[]=home").status == .unauthorized)
            #expect(try await client.api(.get, "/api/v1/markers?timeline[]=home", token: readOnly).status == .ok)
        }
    }
}
