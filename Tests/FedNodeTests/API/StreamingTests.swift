@testable import Core
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSClient
import Logging
import Storage
import Testing
@testable import FedNode

/// Streaming (`/api/v1/streaming`) over a real server: WebSocket and server-sent events carry
/// notifications, new posts, edits and deletes to the people who may see them, and nothing else.
@Suite struct StreamingTests {
    @Test func webSocketCarriesNotificationsPostsAndDeletes() async throws {
        try await ServedNode.with { served in
            let node = served.node
            let (alice, token) = try await served.test.user("alice")
            let (bob, _) = try await served.test.user("bob")
            let (carol, _) = try await served.test.user("carol")
            try await node.interactions.follow(bob, by: alice)
            let photo = try await node.posts.create(.init(text: "My first photo"), by: alice)

            let socket = SocketStreamClient(url: "ws://127.0.0.1:\(served.port)/api/v1/streaming?access_token=\(token)")
            try socket.send(["type": "subscribe", "stream": "user"])
            // The server answers messages in order: once this error arrives, `user` is subscribed.
            try socket.send(["type": "subscribe", "stream": "nonsense"])
            let error = try await socket.message("error reply") { $0["error"] != nil }
            #expect(error["error"] as? String == "Unknown stream type")
            #expect(error["status"] as? Int == 400)

            try await node.interactions.like(photo.id, by: bob)
            let liked = try await socket.event("notification") { payloadObject($0)["type"] as? String == "favourite" }
            #expect(liked["stream"] as? [String] == ["user"])
            let notification = payloadObject(liked["payload"] as? String ?? "")
            #expect((notification["account"] as? [String: Any])?["username"] as? String == "bob")
            #expect((notification["status"] as? [String: Any])?["id"] as? String == String(photo.id))

            try await node.interactions.follow(alice, by: carol)
            try await socket.event("notification") { payloadObject($0)["type"] as? String == "follow" }

            let bobs = try await node.posts.create(.init(text: "Fresh from the darkroom"), by: bob)
            let update = try await socket.event("update") { payloadObject($0)["id"] as? String == String(bobs.id) }
            #expect(update["stream"] as? [String] == ["user"])
            #expect((payloadObject(update["payload"] as? String ?? "")["content"] as? String)?.contains("darkroom") == true)

            _ = try await node.posts.edit(bobs.id, text: "Fresh from the darkroom, retouched", by: bob)
            let edit = try await socket.event("status.update") { payloadObject($0)["id"] as? String == String(bobs.id) }
            #expect((payloadObject(edit["payload"] as? String ?? "")["content"] as? String)?.contains("retouched") == true)

            try await node.posts.delete(bobs.id, by: bob)
            try await socket.event("delete") { $0 == String(bobs.id) }

            // Carol's followers-only post must not reach Alice, who does not follow her; Bob's
            // later post shows that everything logged before it was routed.
            let secret = try await node.posts.create(.init(text: "For my followers", visibility: .private), by: carol)
            let marker = try await node.posts.create(.init(text: "Marker"), by: bob)
            try await socket.event("update") { payloadObject($0)["id"] as? String == String(marker.id) }
            #expect(!socket.messages.contains { ($0["payload"] as? String ?? "").contains(String(secret.id)) })

            await socket.close()
        }
    }

    @Test func webSocketTakesTokenFromProtocolHeaderAndStreamFromQuery() async throws {
        try await ServedNode.with { served in
            let node = served.node
            let (alice, token) = try await served.test.user("alice")
            let (bob, _) = try await served.test.user("bob")
            let photo = try await node.posts.create(.init(text: "Harbour at dawn"), by: alice)

            // Mastodon's web app connects to `/api/v1/streaming/` (trailing slash).
            let socket = SocketStreamClient(url: "ws://127.0.0.1:\(served.port)/api/v1/streaming/?stream=user:notification",
                                            headers: [.secWebSocketProtocol: token])
            try socket.send(["type": "subscribe", "stream": "hashtag"])
            let error = try await socket.message("error reply") { $0["error"] != nil }
            #expect(error["error"] as? String == "No tag for stream provided")

            try await node.interactions.like(photo.id, by: bob)
            let liked = try await socket.event("notification")
            #expect(liked["stream"] as? [String] == ["user:notification"])
            // Alice's own posts are home-timeline updates, not notifications: never on this stream.
            let own = try await node.posts.create(.init(text: "Another one"), by: alice)
            try await node.interactions.like(own.id, by: bob)
            try await socket.event("notification") { (payloadObject($0)["status"] as? [String: Any])?["id"] as? String == String(own.id) }
            #expect(!socket.messages.contains { $0["event"] as? String == "update" })

            await socket.close()
        }
    }

    @Test func webSocketRefusesInvalidTokenBeforeUpgrade() async throws {
        try await ServedNode.with { served in
            let (_, readOnlyStatuses) = try await served.test.user("alice", scopes: "read:statuses")
            var logger = Logger(label: "ws-test")
            logger.logLevel = .critical
            await #expect(throws: WebSocketClientError.webSocketUpgradeFailed) {
                try await WebSocketClient.connect(url: "ws://127.0.0.1:\(served.port)/api/v1/streaming?access_token=not-a-token&stream=user",
                                                  logger: logger) { _, _, _ in }
            }
            await #expect(throws: WebSocketClientError.webSocketUpgradeFailed) {
                try await WebSocketClient.connect(url: "ws://127.0.0.1:\(served.port)/api/v1/streaming?stream=user", logger: logger) { _, _, _ in }
            }
            await #expect(throws: WebSocketClientError.webSocketUpgradeFailed) {
                let url = "ws://127.0.0.1:\(served.port)/api/v1/streaming?access_token=\(readOnlyStatuses)&stream=user:notification"
                try await WebSocketClient.connect(url: url, logger: logger) { _, _, _ in }
            }
        }
    }

    @Test func serverSentUserStreamCarriesNotificationsAndHomePosts() async throws {
        try await ServedNode.with { served in
            let node = served.node
            let (alice, token) = try await served.test.user("alice")
            let (bob, _) = try await served.test.user("bob")
            try await node.interactions.follow(bob, by: alice)
            let photo = try await node.posts.create(.init(text: "Street at night"), by: alice)

            let stream = try EventStreamClient(port: served.port, path: "/api/v1/streaming/user", token: token)
            try await stream.wait(for: "opening comment") { $0.comments.contains(")") }
            #expect(stream.status == 200)
            #expect(stream.headers["content-type"] == "text/event-stream")

            try await node.interactions.like(photo.id, by: bob)
            let liked = try await stream.event("notification")
            #expect(payloadObject(liked.data)["type"] as? String == "favourite")

            let bobs = try await node.posts.create(.init(text: "Rooftops"), by: bob)
            try await stream.event("update") { payloadObject($0)["id"] as? String == String(bobs.id) }
            try await node.posts.delete(bobs.id, by: bob)
            try await stream.event("delete") { $0 == String(bobs.id) }
        }
    }

    @Test func serverSentPublicStreamsAreAnonymousAndCarryOnlyPublicPosts() async throws {
        try await ServedNode.with { served in
            let node = served.node
            let (bob, _) = try await served.test.user("bob")
            let local = try EventStreamClient(port: served.port, path: "/api/v1/streaming/public/local")
            let tagged = try EventStreamClient(port: served.port, path: "/api/v1/streaming/hashtag?tag=Cats")
            try await local.wait(for: "public stream open") { $0.comments.contains(")") }
            try await tagged.wait(for: "hashtag stream open") { $0.comments.contains(")") }

            let secret = try await node.posts.create(.init(text: "Only followers see #cats", visibility: .private), by: bob)
            let plain = try await node.posts.create(.init(text: "A quiet street"), by: bob)
            let cat = try await node.posts.create(.init(text: "Our #cats at the window"), by: bob)

            let update = try await local.event("update") { payloadObject($0)["id"] as? String == String(cat.id) }
            #expect((payloadObject(update.data)["account"] as? [String: Any])?["username"] as? String == "bob")
            #expect(local.events.contains { payloadObject($0.data)["id"] as? String == String(plain.id) })
            try await tagged.event("update") { payloadObject($0)["id"] as? String == String(cat.id) }
            #expect(!tagged.events.contains { payloadObject($0.data)["id"] as? String == String(plain.id) })
            for client in [local, tagged] {
                #expect(!client.events.contains { $0.data.contains(String(secret.id)) })
            }

            try await node.posts.delete(cat.id, by: bob)
            try await local.event("delete") { $0 == String(cat.id) }
            try await tagged.event("delete") { $0 == String(cat.id) }
        }
    }

    @Test func refusesStreamsWithoutAccess() async throws {
        let t = try TestNode.make()
        defer { t.remove() }
        let (_, notificationsOnly) = try await t.user("alice", scopes: "read:notifications")
        try await t.withClient { client in
            let missing = try await client.api(.get, "/api/v1/streaming/user")
            #expect(missing.status == .unauthorized)
            #expect(missing.json?["error"] as? String == "Missing access token")
            let invalid = try await client.api(.get, "/api/v1/streaming/public", token: "not-a-token")
            #expect(invalid.status == .unauthorized)
            let scopes = try await client.api(.get, "/api/v1/streaming/user", token: notificationsOnly)
            #expect(scopes.status == .unauthorized)
            #expect(scopes.json?["error"] as? String == "Access token does not have the required scopes")
            let noTag = try await client.api(.get, "/api/v1/streaming/hashtag", token: notificationsOnly)
            #expect(noTag.status == .badRequest)
            #expect(noTag.json?["error"] as? String == "No tag for stream provided")
            let unknown = try await client.api(.get, "/api/v1/streaming?stream=nowhere", token: notificationsOnly)
            #expect(unknown.status == .badRequest)
            #expect(unknown.json?["error"] as? String == "Unknown stream type")
            let health = try await client.api(.get, "/api/v1/streaming/health")
            #expect(health.status == .ok)
            #expect(health.text == "OK")
        }
    }

    @Test func logRowsArePrunedAfterRetention() async throws {
        let t = try TestNode.make()
        defer { t.remove() }
        let (alice, _) = try await t.user("alice")
        _ = try await t.node.posts.create(.init(text: "Old news"), by: alice)
        try await t.node.database.writeSQL { try $0.execute(sql: "UPDATE stream_events SET created_at = '2000-01-01 00:00:00.000'") }
        let fresh = try await t.node.posts.create(.init(text: "Today's news"), by: alice)
        let remaining = try await t.node.database.writeSQL { db in
            let latest = try StreamEvent.latestId(in: db)
            try StreamEvent.prune(before: Date().addingTimeInterval(-StreamingHub.retention), upTo: latest, in: db)
            return try StreamEvent.order(Column("id")).fetchAll(db)
        }
        #expect(remaining.map(\.postId) == [fresh.id])
        #expect(remaining.map(\.kind) == [.post])
    }
}
