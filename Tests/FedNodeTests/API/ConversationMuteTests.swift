@testable import Core
import Foundation
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// Muting a conversation over HTTP: `mute`/`unmute`, `muted` on the thread's posts, and the
/// notifications the mute stops.
@Suite("Client API: conversation mute")
struct ConversationMuteTests {
    @Test("mute marks the thread muted, stops its notifications, leaves other threads; unmute from any post lifts it")
    func muteAndUnmute() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, aliceToken) = try await t.user("alice")
        let (_, bobToken) = try await t.user("bob")
        try await t.withLiveClient { client async throws in
            let root = try await StatusFixtures.post(client, token: aliceToken, "Sunrise over the bay")
            let other = try await StatusFixtures.post(client, token: aliceToken, "Another morning")
            let reply = try await StatusFixtures.post(client, token: bobToken, "@alice gorgeous", extra: ["in_reply_to_id": root])

            let muted = try await client.api(.post, "/api/v1/statuses/\(root)/mute", token: aliceToken)
            #expect(muted.status == .ok)
            #expect(muted.json?["muted"] as? Bool == true)
            // Every post of the thread shows it, and only for the muter.
            #expect(try await client.api(.get, "/api/v1/statuses/\(reply)", token: aliceToken).json?["muted"] as? Bool == true)
            #expect(try await client.api(.get, "/api/v1/statuses/\(reply)", token: bobToken).json?["muted"] as? Bool == false)
            #expect(try await client.api(.get, "/api/v1/statuses/\(other)", token: aliceToken).json?["muted"] as? Bool == false)
            // Twice is once.
            #expect(try await client.api(.post, "/api/v1/statuses/\(reply)/mute", token: aliceToken).status == .ok)

            // Likes, boosts and replies in the thread no longer notify alice; elsewhere they do.
            let before = try await Self.notificationCount(client, aliceToken)
            #expect(try await client.api(.post, "/api/v1/statuses/\(root)/favourite", token: bobToken).status == .ok)
            #expect(try await client.api(.post, "/api/v1/statuses/\(root)/reblog", token: bobToken).status == .ok)
            _ = try await StatusFixtures.post(client, token: bobToken, "@alice the colours!", extra: ["in_reply_to_id": reply])
            #expect(try await Self.notificationCount(client, aliceToken) == before)
            #expect(try await client.api(.post, "/api/v1/statuses/\(other)/favourite", token: bobToken).status == .ok)
            #expect(try await Self.notificationCount(client, aliceToken) == before + 1)

            // Unmuting from a reply lifts the mute of the whole thread.
            let unmuted = try await client.api(.post, "/api/v1/statuses/\(reply)/unmute", token: aliceToken)
            #expect(unmuted.status == .ok)
            #expect(unmuted.json?["muted"] as? Bool == false)
            #expect(try await client.api(.get, "/api/v1/statuses/\(root)", token: aliceToken).json?["muted"] as? Bool == false)
            _ = try await StatusFixtures.post(client, token: bobToken, "@alice once more", extra: ["in_reply_to_id": root])
            #expect(try await Self.notificationCount(client, aliceToken) == before + 2)
        }
    }

    @Test("muting needs write:mutes and a post the caller can see")
    func scopesAndVisibility() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, aliceToken) = try await t.user("alice")
        let (_, bobToken) = try await t.user("bob")
        let (_, readOnly) = try await t.user("carol", scopes: "read")
        try await t.withClient { client async throws in
            let secret = try await StatusFixtures.post(client, token: aliceToken, "Just for me", visibility: "private")
            #expect(try await client.api(.post, "/api/v1/statuses/\(secret)/mute", token: bobToken).status == .notFound)
            #expect(try await client.api(.post, "/api/v1/statuses/\(secret)/mute", token: readOnly).status == .forbidden)
            #expect(try await client.api(.post, "/api/v1/statuses/\(secret)/mute").status == .unauthorized)
            #expect(try await client.api(.post, "/api/v1/statuses/99999/mute", token: aliceToken).status == .notFound)
        }
    }

    private static func notificationCount(_ client: any TestClientProtocol, _ token: String) async throws -> Int {
        try await client.api(.get, "/api/v1/notifications?limit=40", token: token).jsonArray?.count ?? -1
    }
}
