@testable import Core
import Foundation
import Hummingbird
import Storage
import Testing
@testable import FedNode

/// The `list` and `direct` streams over a real WebSocket: a list member's post on the list
/// stream, no one else's, and a direct post as a `conversation` event.
@Suite("Streaming: list and direct streams")
struct StreamListDirectTests {
    @Test func listStreamCarriesMembersPostsAndDirectStreamCarriesConversations() async throws {
        try await ServedNode.with { served in
            let node = served.node
            let (alice, token) = try await served.test.user("alice")
            let (bob, _) = try await served.test.user("bob")
            let (carol, _) = try await served.test.user("carol")
            _ = try await node.interactions.follow(bob, by: alice)
            _ = try await node.interactions.follow(carol, by: alice)
            var changes = ListService.Changes()
            changes.title = "Friends"
            let list = try await ListService(node: node).create(changes, by: alice)
            try await ListService(node: node).add([bob.id], to: list.id, by: alice)

            let socket = SocketStreamClient(url: "ws://127.0.0.1:\(served.port)/api/v1/streaming", headers: [.authorization: "Bearer \(token)"])
            try socket.send(["type": "subscribe", "stream": "list"])
            let missing = try await socket.message("error reply") { $0["error"] != nil }
            #expect(missing["error"] as? String == "No list for stream provided")
            try socket.send(["type": "subscribe", "stream": "list", "list": String(list.id)])
            try socket.send(["type": "subscribe", "stream": "direct"])
            try await Task.sleep(for: .milliseconds(300))

            _ = try await node.posts.create(.init(text: "Not on the list"), by: carol)
            let onList = try await node.posts.create(.init(text: "Hello friends"), by: bob)
            let update = try await socket.event("update") { payloadObject($0)["id"] as? String == String(onList.id) }
            #expect(update["stream"] as? [String] == ["list", String(list.id)])
            #expect(!socket.messages.contains { ($0["stream"] as? [String])?.first == "list" && (($0["payload"] as? String) ?? "").contains("Not on the list") })

            let secret = try await node.posts.create(.init(text: "@alice dinner?", visibility: .direct), by: bob)
            let conversation = try await socket.event("conversation")
            #expect(conversation["stream"] as? [String] == ["direct"])
            #expect((payloadObject(conversation["payload"] as? String ?? "")["last_status"] as? [String: Any])?["id"] as? String == String(secret.id))
            await socket.close()
        }
    }
}
