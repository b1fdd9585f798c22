@testable import Core
import Foundation
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// Mutes over HTTP: the relationship, the list, and what a mute hides and for how long.
@Suite("Client API: mutes")
struct MutesTests {
    @Test("mute answers the relationship; duration and notifications show in relationships and the mutes list; unmute lifts it")
    func muteAndList() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, _) = try await t.user("alice")
        let (carol, _) = try await t.user("carol")
        let (_, bobToken) = try await t.user("bob")
        try await t.withLiveClient { client async throws in
            let muted = try await client.api(.post, "/api/v1/accounts/\(alice.id)/mute", token: bobToken, form: "duration=3600")
            #expect(muted.status == .ok)
            let relationship = try muted.entity(APIRelationship.self)
            #expect(relationship.muting && relationship.mutingNotifications && !relationship.following)
            let quiet = try await client.api(.post, "/api/v1/accounts/\(carol.id)/mute", token: bobToken,
                                             json: ["notifications": false])
            #expect(try quiet.entity(APIRelationship.self).muting)
            #expect(try quiet.entity(APIRelationship.self).mutingNotifications == false)

            let both = try await client.api(.get, "/api/v1/accounts/relationships?id[]=\(alice.id)&id[]=\(carol.id)", token: bobToken)
            #expect(try both.entity([APIRelationship].self).map { [$0.muting, $0.mutingNotifications] } == [[true, true], [true, false]])

            let list = try await client.api(.get, "/api/v1/mutes", token: bobToken)
            #expect(StatusFixtures.ids(list) == [String(carol.id), String(alice.id)])
            let rows = list.jsonArray ?? []
            #expect(rows.first?.keys.contains("mute_expires_at") == true && rows.first?["mute_expires_at"] is NSNull)
            let expiry = try #require(rows.last?["mute_expires_at"] as? String)
            let date = try #require(try? Date(expiry, strategy: .iso8601.year().month().day().time(includingFractionalSeconds: true)))
            #expect(date > Date().addingTimeInterval(3000) && date < Date().addingTimeInterval(3700))
            #expect(list.headers[.link]?.contains("rel=\"next\"") == true)

            let lifted = try await client.api(.post, "/api/v1/accounts/\(alice.id)/unmute", token: bobToken)
            #expect(try lifted.entity(APIRelationship.self).muting == false)
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/mutes", token: bobToken)) == [String(carol.id)])
        }
    }

    @Test("mute refuses bad durations, oneself, unknown accounts and tokens without write:mutes")
    func refusals() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, _) = try await t.user("alice")
        let (bob, bobToken) = try await t.user("bob")
        let (_, readOnly) = try await t.user("carol", scopes: "read")
        try await t.withLiveClient { client async throws in
            for duration in ["-5", "soon", "99999999999"] {
                let r = try await client.api(.post, "/api/v1/accounts/\(alice.id)/mute", token: bobToken, form: "duration=\(duration)")
                #expect(r.status == .unprocessableContent, "duration \(duration)")
                #expect((r.json?["error"] as? String)?.contains("Duration") == true)
            }
            #expect(try await client.api(.post, "/api/v1/accounts/\(bob.id)/mute", token: bobToken).status == .unprocessableContent)
            #expect(try await client.api(.post, "/api/v1/accounts/4242/mute", token: bobToken).status == .notFound)
            #expect(try await client.api(.post, "/api/v1/accounts/\(alice.id)/mute", token: readOnly).status == .forbidden)
            #expect(try await client.api(.get, "/api/v1/mutes").status == .unauthorized)
            #expect(try await client.api(.get, "/api/v1/mutes", token: readOnly).status == .ok)
        }
    }

    @Test("a muted account's posts, boosts of them and posts mentioning it leave the home and public timelines")
    func timelines() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (carol, carolToken) = try await t.user("carol")
        let (bob, bobToken) = try await t.user("bob")
        try await t.node.interactions.follow(alice, by: bob)
        try await t.node.interactions.follow(carol, by: bob)
        try await t.withLiveClient { client async throws in
            let byAlice = try await StatusFixtures.post(client, token: aliceToken, "Lighthouse")
            let boost = try #require(try await client.api(.post, "/api/v1/statuses/\(byAlice)/reblog", token: carolToken).json?["id"] as? String)
            let mention = try await StatusFixtures.post(client, token: carolToken, "Look @alice", visibility: "unlisted")
            let plain = try await StatusFixtures.post(client, token: carolToken, "Cliffs")
            let home = "/api/v1/timelines/home"
            #expect(StatusFixtures.ids(try await client.api(.get, home, token: bobToken)) == [plain, mention, boost, byAlice])

            _ = try await client.api(.post, "/api/v1/accounts/\(alice.id)/mute", token: bobToken)
            #expect(StatusFixtures.ids(try await client.api(.get, home, token: bobToken)) == [plain])
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/public", token: bobToken)) == [plain])
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/timelines/public")) == [plain, byAlice])
            // The profile still lists them, as Mastodon's does.
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/accounts/\(alice.id)/statuses", token: bobToken)) == [byAlice])

            // An expired mute no longer applies, even before any janitor removes it.
            try await t.node.database.write { db in
                try db.mutes.save(Mute(accountId: bob.id, targetAccountId: alice.id, hideNotifications: true,
                                       expiresAt: Date().addingTimeInterval(-60)))
            }
            #expect(StatusFixtures.ids(try await client.api(.get, home, token: bobToken)) == [plain, mention, boost, byAlice])
            let relationship = try await client.api(.get, "/api/v1/accounts/relationships?id[]=\(alice.id)", token: bobToken)
            #expect(try relationship.entity([APIRelationship].self).first?.muting == false)
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/mutes", token: bobToken)).isEmpty)
            // The hourly housekeeping pass removes the ended mute's row.
            await SeenActivityPruner(node: t.node).prune()
            #expect(try StatusFixtures.read(t.node) { try Mute.fetchCount($0) } == 0)
        }
        _ = carol
    }

    @Test("notifications from a muted account are hidden when the mute covers them, shown otherwise")
    func notifications() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (_, bobToken) = try await t.user("bob")
        try await t.withLiveClient { client async throws in
            let post = try await StatusFixtures.post(client, token: bobToken, "Tide pools")
            _ = try await client.api(.post, "/api/v1/statuses/\(post)/favourite", token: aliceToken)
            let path = "/api/v1/notifications"
            #expect((try await client.api(.get, path, token: bobToken).jsonArray ?? []).count == 1)

            _ = try await client.api(.post, "/api/v1/accounts/\(alice.id)/mute", token: bobToken, form: "notifications=false")
            #expect((try await client.api(.get, path, token: bobToken).jsonArray ?? []).count == 1)
            _ = try await client.api(.post, "/api/v1/accounts/\(alice.id)/mute", token: bobToken, form: "notifications=true")
            #expect((try await client.api(.get, path, token: bobToken).jsonArray ?? []).isEmpty)
            _ = try await client.api(.post, "/api/v1/accounts/\(alice.id)/unmute", token: bobToken)
            #expect((try await client.api(.get, path, token: bobToken).jsonArray ?? []).count == 1)
        }
    }
}
