@testable import Core
import Foundation
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// Scheduled posts over HTTP: made with `scheduled_at`, listed, moved, cancelled, refused when
/// too soon, and published once when due, with their photos and poll.
@Suite("Client API: scheduled posts")
struct ScheduledStatusesTests {
    static func iso(_ date: Date) -> String { date.formatted(.iso8601) }

    @Test("a post scheduled with photos and a poll is listed, moved and published once when due")
    func scheduleAndPublish() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        let (_, bobToken) = try await t.user("bob")
        try await t.withClient { client async throws in
            let media = try await StatusFixtures.uploadedMedia(client, token: token)
            let at = Date().addingTimeInterval(3600)
            let made = try await client.api(.post, "/api/v1/statuses", token: token, json: [
                "status": "Sunrise, later", "media_ids": [media], "visibility": "unlisted", "scheduled_at": Self.iso(at),
                "poll": ["options": ["Yes", "No"], "expires_in": 600] as [String: Any],
            ])
            #expect(made.status == .ok)
            let id = try #require(made.json?["id"] as? String)
            let params = try #require(made.json?["params"] as? [String: Any])
            #expect(params["text"] as? String == "Sunrise, later" && params["visibility"] as? String == "unlisted")
            #expect(params["media_ids"] as? [String] == [media])
            #expect(((params["poll"] as? [String: Any])?["options"] as? [String]) == ["Yes", "No"])
            #expect((made.json?["media_attachments"] as? [[String: Any]])?.first?["id"] as? String == media)
            #expect(try await client.api(.get, "/api/v1/timelines/home", token: token).jsonArray?.isEmpty == true, "not published yet")

            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/scheduled_statuses", token: token)) == [id])
            #expect(try await client.api(.get, "/api/v1/scheduled_statuses/\(id)", token: bobToken).status == .notFound)
            let later = at.addingTimeInterval(3600)
            let moved = try await client.api(.put, "/api/v1/scheduled_statuses/\(id)", token: token, json: ["scheduled_at": Self.iso(later)])
            #expect(moved.status == .ok)

            // The uploads are kept past the janitor's day while they wait.
            await MediaJanitor(node: t.node).clean(now: Date().addingTimeInterval(2 * 86_400), grace: 0)
            #expect(try await client.api(.get, "/api/v1/media/\(media)", token: token).status == .ok)

            #expect(try await ScheduledPostService(node: t.node).publishDue(now: at).isEmpty, "moved later: not due")
            let published = try await ScheduledPostService(node: t.node).publishDue(now: later.addingTimeInterval(1))
            #expect(published.count == 1)
            #expect(try await ScheduledPostService(node: t.node).publishDue(now: later.addingTimeInterval(2)).isEmpty, "published once")
            let home = try #require(try await client.api(.get, "/api/v1/timelines/home", token: token).jsonArray?.first)
            #expect(home["visibility"] as? String == "unlisted")
            #expect((home["media_attachments"] as? [[String: Any]])?.first?["id"] as? String == media)
            #expect((home["poll"] as? [String: Any]) != nil)
            #expect(try await client.api(.get, "/api/v1/scheduled_statuses", token: token).jsonArray?.isEmpty == true)
        }
    }

    @Test("too soon, past or unreadable times, and someone else's uploads are refused; a cancelled post is never published")
    func refusedAndCancelled() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        let (_, bobToken) = try await t.user("bob")
        try await t.withClient { client async throws in
            let bobsMedia = try await StatusFixtures.uploadedMedia(client, token: bobToken)
            for (when, extra): (String, [String: Any]) in [
                (Self.iso(Date().addingTimeInterval(60)), [:]), (Self.iso(Date().addingTimeInterval(-3600)), [:]), ("tomorrow", [:]),
                (Self.iso(Date().addingTimeInterval(3600)), ["media_ids": [bobsMedia]]),
            ] {
                let response = try await client.api(.post, "/api/v1/statuses", token: token,
                                                    json: ["status": "Later", "scheduled_at": when].merging(extra) { $1 })
                #expect(response.status == .unprocessableContent, "\(when) \(extra)")
            }
            let at = Date().addingTimeInterval(3600)
            let made = try await client.api(.post, "/api/v1/statuses", token: token, json: ["status": "Never", "scheduled_at": Self.iso(at)])
            let id = try #require(made.json?["id"] as? String)
            #expect(try await client.api(.put, "/api/v1/scheduled_statuses/\(id)", token: token,
                                         json: ["scheduled_at": Self.iso(Date())]).status == .unprocessableContent)
            #expect(try await client.api(.delete, "/api/v1/scheduled_statuses/\(id)", token: bobToken).status == .notFound)
            #expect(try await client.api(.delete, "/api/v1/scheduled_statuses/\(id)", token: token).status == .ok)
            #expect(try await ScheduledPostService(node: t.node).publishDue(now: at.addingTimeInterval(1)).isEmpty)
        }
    }
}
