@testable import Core
import Foundation
import Testing
@testable import FedNode

@Suite("Unsupported parameters are refused, never silently ignored")
struct UnsupportedParametersTests {
    @Test("a scheduled post is not posted now; a poll without duration and a poll on an edit answer 422 and post nothing")
    func scheduledAndPolls() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        try await t.withClient { client async throws in
            let scheduled = try await client.api(.post, "/api/v1/statuses", token: token,
                                                 json: ["status": "later", "scheduled_at": "2030-01-01T10:00:00Z"])
            #expect(scheduled.status == .ok, "a scheduled post is kept for later, not posted now")
            #expect(scheduled.json?["scheduled_at"] as? String == "2030-01-01T10:00:00.000Z")
            // A poll without its duration is refused, not posted without it.
            let form = try await client.api(.post, "/api/v1/statuses?status=which&poll%5Boptions%5D%5B%5D=a&poll%5Boptions%5D%5B%5D=b",
                                            token: token)
            #expect(form.status == .unprocessableContent)
            // Apps that send the keys empty (JSON null) are not refused.
            let plain = try await client.api(.post, "/api/v1/statuses", token: token,
                                             json: ["status": "now", "scheduled_at": NSNull(), "poll": NSNull()])
            #expect(plain.status == .ok)
            let id = try #require(plain.json?["id"] as? String)
            let edit = try await client.api(.put, "/api/v1/statuses/\(id)", token: token,
                                            json: ["status": "now, edited", "poll": ["options": ["a", "b"]]])
            #expect(edit.status == .unprocessableContent)
            let timeline = try await client.api(.get, "/api/v1/timelines/home", token: token)
            #expect(timeline.jsonArray?.compactMap { $0["content"] as? String } == ["<p>now</p>"])
        }
    }

    @Test("update_credentials refuses username and email with 422 and changes nothing")
    func renameRefused() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        try await t.withClient { client async throws in
            let rename = try await client.api(.patch, "/api/v1/accounts/update_credentials", token: token,
                                              json: ["username": "alicia", "display_name": "Alicia"])
            #expect(rename.status == .unprocessableContent)
            #expect((rename.json?["error"] as? String)?.contains("Usernames cannot be changed") == true)
            let email = try await client.api(.patch, "/api/v1/accounts/update_credentials", token: token,
                                             json: ["email": "new@example.com"])
            #expect(email.status == .unprocessableContent)
            let me = try await client.api(.get, "/api/v1/accounts/verify_credentials", token: token)
            #expect(me.json?["username"] as? String == "alice")
            #expect(me.json?["display_name"] as? String != "Alicia")
        }
    }

    @Test("update_credentials refuses settings the node does not keep, and accepts the values it has")
    func unkeptSettings() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        try await t.withClient { client async throws in
            let refused: [[String: Any]] = [
                ["hide_collections": true, "display_name": "Alice"], ["source": ["hide_collections": true]],
                ["attribution_domains": ["example.com"]],
            ]
            for body in refused {
                let response = try await client.api(.patch, "/api/v1/accounts/update_credentials", token: token, json: body)
                #expect(response.status == .unprocessableContent, "\(body)")
                #expect((response.json?["error"] as? String)?.contains("not supported") == true)
            }
            #expect(try await client.api(.get, "/api/v1/accounts/verify_credentials", token: token).json?["display_name"] as? String != "Alice")
            let same = try await client.api(.patch, "/api/v1/accounts/update_credentials", token: token,
                                            json: ["source": ["privacy": "public", "sensitive": false], "hide_collections": false, "display_name": "Alice"])
            #expect(same.status == .ok)
            #expect(same.json?["display_name"] as? String == "Alice")
        }
    }

    @Test("an edit's media_attributes change the alt text and focus of the post's photos; another photo's id is refused")
    func mediaAttributesOnEdit() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        try await t.withClient { client async throws in
            let bytes = StatusFixtures.png(width: 64, height: 48)
            let first = try #require(try await StatusFixtures.upload(client, token: token, bytes: bytes, description: "a cat").json?["id"] as? String)
            let other = try #require(try await StatusFixtures.upload(client, token: token, bytes: bytes).json?["id"] as? String)
            let id = try await StatusFixtures.post(client, token: token, "my cat", extra: ["media_ids": [first]])
            let edited = try await client.api(.put, "/api/v1/statuses/\(id)", token: token, json: [
                "status": "my cat", "media_ids": [first],
                "media_attributes": [["id": first, "description": "A grey cat asleep on a windowsill", "focus": "0.5,-0.25"]],
            ])
            #expect(edited.status == .ok)
            let media = try #require((edited.json?["media_attachments"] as? [[String: Any]])?.first)
            #expect(media["description"] as? String == "A grey cat asleep on a windowsill")
            let focus = (media["meta"] as? [String: Any])?["focus"] as? [String: Double]
            #expect(focus == ["x": 0.5, "y": -0.25])

            let foreign = try await client.api(.put, "/api/v1/statuses/\(id)", token: token,
                                               json: ["status": "my cat", "media_attributes": [["id": other, "description": "not here"]]])
            #expect(foreign.status == .unprocessableContent)
            let shown = try await client.api(.get, "/api/v1/statuses/\(id)", token: token)
            #expect((shown.json?["media_attachments"] as? [[String: Any]])?.first?["description"] as? String == "A grey cat asleep on a windowsill")
        }
    }

    @Test("an unknown route answers 404 Not found, distinct from a missing record")
    func unknownRoute() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        try await t.withClient { client async throws in
            let route = try await client.api(.get, "/api/v1/no_such_thing", token: token)
            #expect(route.status == .notFound)
            #expect(route.json?["error"] as? String == "Not found")
            let record = try await client.api(.get, "/api/v1/statuses/123456", token: token)
            #expect(record.status == .notFound)
            #expect(record.json?["error"] as? String == "Record not found")
        }
    }
}
