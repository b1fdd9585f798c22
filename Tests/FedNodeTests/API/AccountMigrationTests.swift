@testable import Core
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// Account aliases and moves on one node (GoToSocial's `/api/v1/accounts/alias|move`): the
/// actor documents, `Account.moved`, the followers moving over, and the refusals.
@Suite("Client API: account migration")
struct AccountMigrationTests {
    @Test("an alias shows as alsoKnownAs; the move needs the password and the alias, moves followers and stops posting")
    func moveBetweenLocalAccounts() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (alice2, alice2Token) = try await t.user("alice2")
        let (bob, _) = try await t.user("bob")
        let (carol, carolToken) = try await t.user("carol")
        try await t.node.interactions.follow(alice, by: carol)
        try await t.withClient { client async throws in
            let aliased = try await client.api(.post, "/api/v1/accounts/alias", token: alice2Token, json: ["also_known_as_uris": [alice.uri]])
            #expect(aliased.status == .ok && aliased.json?["id"] as? String == String(alice2.id))
            #expect(try await Self.actor(client, "alice2")["alsoKnownAs"] as? [String] == [alice.uri])
            #expect(try await client.api(.post, "/api/v1/accounts/alias", token: alice2Token, json: ["also_known_as_uris": ["not a uri"]]).status
                    == .unprocessableContent)
            #expect(try await client.api(.post, "/api/v1/accounts/alias", token: alice2Token, json: ["also_known_as_uris": [alice2.uri]]).status
                    == .unprocessableContent, "not one's own alias")

            let wrong = try await client.api(.post, "/api/v1/accounts/move", token: aliceToken,
                                             json: ["password": "wrong password", "moved_to_uri": alice2.uri])
            #expect(wrong.status == .unprocessableContent)
            let unaliased = try await client.api(.post, "/api/v1/accounts/move", token: aliceToken,
                                                 json: ["password": "correct horse battery", "moved_to_uri": bob.uri])
            #expect(unaliased.status == .unprocessableContent && (unaliased.json?["error"] as? String)?.contains("alsoKnownAs") == true)
            let moved = try await client.api(.post, "/api/v1/accounts/move", token: aliceToken,
                                             json: ["password": "correct horse battery", "moved_to_uri": alice2.uri])
            #expect(moved.status == .accepted && moved.json?["message"] as? String == "accepted")

            let shown = try await client.api(.get, "/api/v1/accounts/\(alice.id)", token: carolToken)
            #expect((shown.json?["moved"] as? [String: Any])?["id"] as? String == String(alice2.id))
            #expect(try await client.api(.get, "/api/v1/accounts/\(alice2.id)", token: carolToken).json?.keys.contains("moved") == false)
            #expect(try await Self.actor(client, "alice")["movedTo"] as? String == alice2.uri)
            let relations = try await client.api(.get, "/api/v1/accounts/relationships?id[]=\(alice.id)&id[]=\(alice2.id)", token: carolToken)
            #expect(try relations.entity([APIRelationship].self).map(\.following) == [false, true])
            let notices = try await client.api(.get, "/api/v1/notifications", token: carolToken).jsonArray ?? []
            #expect(notices.first?["type"] as? String == "move")
            #expect((notices.first?["account"] as? [String: Any])?["id"] as? String == String(alice.id))

            let post = try await client.api(.post, "/api/v1/statuses", token: aliceToken, json: ["status": "still here?"])
            #expect(post.status == .unprocessableContent)
            #expect(try await client.api(.get, "/api/v1/accounts/verify_credentials", token: aliceToken).status == .ok, "can still sign in")
            let again = try await client.api(.post, "/api/v1/accounts/move", token: aliceToken,
                                             json: ["password": "correct horse battery", "moved_to_uri": alice2.uri])
            #expect(again.status == .unprocessableContent)
        }
    }

    @Test("alias and move need write:accounts and their parameters")
    func refusals() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, readOnly) = try await t.user("alice", scopes: "read")
        let (_, token) = try await t.user("bob")
        try await t.withClient { client async throws in
            #expect(try await client.api(.post, "/api/v1/accounts/alias", json: ["also_known_as_uris": []]).status == .unauthorized)
            #expect(try await client.api(.post, "/api/v1/accounts/alias", token: readOnly, json: ["also_known_as_uris": []]).status == .forbidden)
            #expect(try await client.api(.post, "/api/v1/accounts/move", token: readOnly, json: ["password": "x", "moved_to_uri": "x"]).status
                    == .forbidden)
            #expect(try await client.api(.post, "/api/v1/accounts/move", token: token, json: ["password": "correct horse battery"]).status
                    == .badRequest)
            let tooMany = (1...6).map { "https://example.test/users/u\($0)" }
            #expect(try await client.api(.post, "/api/v1/accounts/alias", token: token, json: ["also_known_as_uris": tooMany]).status
                    == .unprocessableContent)
            #expect(try await client.api(.post, "/api/v1/accounts/alias", token: token, json: ["also_known_as_uris": []]).status == .ok)
        }
    }

    /// The ActivityPub actor document of the local account `name`.
    private static func actor(_ client: any TestClientProtocol, _ name: String) async throws -> [String: Any] {
        let response = try await client.execute(uri: "/users/\(name)", method: .get, headers: [.accept: "application/activity+json"], body: nil)
        return response.json ?? [:]
    }
}
