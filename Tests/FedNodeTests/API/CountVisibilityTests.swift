@testable import Core
import Foundation
import Testing
@testable import FedNode

@Suite("Counts reveal only what everyone may see")
struct CountVisibilityTests {
    @Test("replies_count counts public and unlisted replies, not followers-only or direct ones")
    func repliesCount() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, aliceToken) = try await t.user("alice")
        let (_, bobToken) = try await t.user("bob")
        let (_, carolToken) = try await t.user("carol")
        try await t.withClient { client async throws in
            let id = try await StatusFixtures.post(client, token: aliceToken, "a photo walk")
            _ = try await StatusFixtures.post(client, token: bobToken, "lovely", extra: ["in_reply_to_id": id])
            _ = try await StatusFixtures.post(client, token: bobToken, "quietly", visibility: "unlisted", extra: ["in_reply_to_id": id])
            _ = try await StatusFixtures.post(client, token: bobToken, "only my followers", visibility: "private",
                                              extra: ["in_reply_to_id": id])
            _ = try await StatusFixtures.post(client, token: bobToken, "@alice just you", visibility: "direct",
                                              extra: ["in_reply_to_id": id])
            for token in [nil, carolToken, aliceToken] {
                let status = try await client.api(.get, "/api/v1/statuses/\(id)", token: token)
                #expect(status.json?["replies_count"] as? Int == 2)
            }
        }
    }

    @Test("a hashtag's history counts public and unlisted uses only")
    func tagHistory() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, aliceToken) = try await t.user("alice")
        let (_, bobToken) = try await t.user("bob")
        try await t.withClient { client async throws in
            _ = try await StatusFixtures.post(client, token: aliceToken, "out at dawn #sunrise")
            _ = try await StatusFixtures.post(client, token: bobToken, "just for friends #sunrise", visibility: "private")
            let tag = try await client.api(.get, "/api/v1/tags/sunrise", token: bobToken)
            let today = (tag.json?["history"] as? [[String: Any]])?.first
            #expect(today?["uses"] as? String == "1")
            #expect(today?["accounts"] as? String == "1")
        }
    }
}
