@testable import Core
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import FedNode

/// The visibility promises, checked across every endpoint that can show a post: followers-only
/// posts reach followers and nobody else; a blocked account sees nothing of the blocker; a
/// deleted post is gone everywhere.
@Suite("Visibility across every endpoint")
struct VisibilityTests {
    /// Every place a post by `author` with `tag` could show up for a reader, with whether it does.
    private func appearances(of id: String, author: String, tag: String, token: String?, parent: String,
                             client: some TestClientProtocol) async throws -> [String: Bool] {
        func listed(_ path: String, _ key: String? = nil) async throws -> Bool {
            let r = try await client.api(.get, path, token: token)
            let list = key.flatMap { (r.json?[$0] as? [[String: Any]]) } ?? r.jsonArray ?? []
            return list.contains { ($0["id"] as? String) == id || (($0["reblog"] as? [String: Any])?["id"] as? String) == id }
        }
        let single = try await client.api(.get, "/api/v1/statuses/\(id)", token: token)
        let context = try await client.api(.get, "/api/v1/statuses/\(parent)/context", token: token)
        let descendants = context.json?["descendants"] as? [[String: Any]] ?? []
        var seen: [String: Bool] = [
            "GET status": single.status == .ok,
            "context": descendants.contains { $0["id"] as? String == id },
            "account statuses": try await listed("/api/v1/accounts/\(author)/statuses"),
            "public timeline": try await listed("/api/v1/timelines/public"),
            "tag timeline": try await listed("/api/v1/timelines/tag/\(tag)"),
            "search": try await listed("/api/v2/search?q=%23\(tag)&type=statuses", "statuses"),
        ]
        if token != nil { seen["home timeline"] = try await listed("/api/v1/timelines/home") }
        return seen
    }

    @Test("followers-only: followers see it; a non-follower and anonymous readers never do")
    func followersOnly() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (_, bobToken) = try await t.user("bob")
        let (_, malloryToken) = try await t.user("mallory")
        try await t.withClient { client in
            _ = try await client.api(.post, "/api/v1/accounts/\(alice.id)/follow", token: bobToken)
            let parent = try #require(try await client.api(.post, "/api/v1/statuses", token: aliceToken, json: ["status": "public parent"]).json?["id"] as? String)
            let secret = try await client.api(.post, "/api/v1/statuses", token: aliceToken, json: [
                "status": "for followers #quiet", "visibility": "private", "in_reply_to_id": parent])
            let id = try #require(secret.json?["id"] as? String)
            let follower = try await appearances(of: id, author: String(alice.id), tag: "quiet", token: bobToken, parent: parent, client: client)
            #expect(follower["GET status"] == true && follower["context"] == true && follower["home timeline"] == true, "\(follower)")
            #expect(follower["account statuses"] == true, "\(follower)")
            // Followers-only posts stay off public timelines even for followers.
            #expect(follower["public timeline"] == false && follower["tag timeline"] == false, "\(follower)")
            for (who, token) in [("mallory", Optional(malloryToken)), ("anonymous", nil)] {
                let seen = try await appearances(of: id, author: String(alice.id), tag: "quiet", token: token, parent: parent, client: client)
                #expect(!seen.values.contains(true), "\(who) saw a followers-only post: \(seen)")
            }
        }
    }

    @Test("a blocked account sees nothing of the blocker; a deleted post is gone everywhere")
    func blockedAndDeleted() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (bob, bobToken) = try await t.user("bob")
        try await t.withClient { client in
            _ = try await client.api(.post, "/api/v1/accounts/\(alice.id)/follow", token: bobToken)
            let parent = try #require(try await client.api(.post, "/api/v1/statuses", token: aliceToken, json: ["status": "parent"]).json?["id"] as? String)
            let post = try #require(try await client.api(.post, "/api/v1/statuses", token: aliceToken, json: [
                "status": "hello #open", "in_reply_to_id": parent]).json?["id"] as? String)
            let before = try await appearances(of: post, author: String(alice.id), tag: "open", token: bobToken, parent: parent, client: client)
            #expect(!before.values.contains(false), "bob should see the public post before the block: \(before)")

            #expect(try await client.api(.post, "/api/v1/accounts/\(bob.id)/block", token: aliceToken).status == .ok)
            let blocked = try await appearances(of: post, author: String(alice.id), tag: "open", token: bobToken, parent: parent, client: client)
            #expect(!blocked.values.contains(true), "bob, blocked, still sees alice's post: \(blocked)")

            #expect(try await client.api(.delete, "/api/v1/statuses/\(post)", token: aliceToken).status == .ok)
            let gone = try await appearances(of: post, author: String(alice.id), tag: "open", token: aliceToken, parent: parent, client: client)
            #expect(!gone.values.contains(true), "a deleted post still shows: \(gone)")
        }
    }
}
