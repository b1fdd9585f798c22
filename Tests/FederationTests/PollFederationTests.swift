@testable import Core
import Foundation
import GRDB
import Storage
import Testing
@testable import FedNode

/// Polls from and to servers of other software, played by a fake origin: the `Question`
/// shapes Mastodon and Misskey send, `Update`s that only move the counts, votes received as
/// named `Note`s, and votes sent the way Mastodon expects them.
@Suite("Poll federation", .serialized)
struct PollFederationTests {
    static let asPublic = "https://www.w3.org/ns/activitystreams#Public"

    /// A `Question` as Mastodon 4 sends it (single choice, `votersCount`, no `closed` yet).
    static func mastodonQuestion(_ id: String, actor: String, counts: [Int], endTime: String) -> [String: Any] {
        ["id": id, "type": "Question", "attributedTo": actor, "to": [asPublic], "cc": [actor + "/followers"],
         "content": "<p>Which ferry?</p>", "published": "2026-12-01T10:00:00Z", "endTime": endTime, "votersCount": counts.reduce(0, +),
         "oneOf": zip(["Morning", "Evening"], counts).map { name, count in
             ["type": "Note", "name": name, "replies": ["type": "Collection", "totalItems": count]] as [String: Any]
         }]
    }

    static func create(_ object: [String: Any], actor: String) -> [String: Any] {
        ["@context": "https://www.w3.org/ns/activitystreams", "id": (object["id"] as? String ?? "") + "/activity", "type": "Create",
         "actor": actor, "to": [asPublic], "object": object]
    }

    @Test("Mastodon's and Misskey's Question shapes are stored with their polls; an Update of the counts is no edit")
    func inboundShapes() async throws {
        let (a, evil) = (try NetworkNode(name: "a"), try HostileOrigin())
        defer { a.remove() }
        try await a.start(workers: false)
        try await evil.start()
        evil.serve("/users/ferry", json: evil.actor("ferry"))
        let actor = "\(evil.base)/users/ferry"
        let question = Self.mastodonQuestion(actor + "/statuses/1", actor: actor, counts: [3, 5], endTime: "2099-01-01T00:00:00Z")
        #expect(try await evil.deliver(Self.create(question, actor: actor), to: a, keyId: actor + "#main-key") == 202)
        // Misskey: several choices (`anyOf`), a boolean `closed`, no `votersCount`.
        let misskey: [String: Any] = [
            "id": actor + "/notes/9", "type": "Question", "attributedTo": actor, "to": [Self.asPublic], "content": "<p>Snacks?</p>",
            "_misskey_content": "Snacks?", "endTime": "2026-11-01T00:00:00Z", "closed": true,
            "anyOf": [["type": "Note", "name": "Crisps", "replies": ["type": "Collection", "totalItems": 2]],
                      ["type": "Note", "name": "Fruit", "replies": ["type": "Collection", "totalItems": 7]]],
        ]
        #expect(try await evil.deliver(Self.create(misskey, actor: actor), to: a, keyId: actor + "#main-key") == 202)
        await InboxWorker(node: a.node).processDue()

        let post = try #require(try a.read { try Post.filter(Column("uri") == actor + "/statuses/1").fetchOne($0) })
        let poll = try #require(try await a.node.database.read { try $0.polls.find(post: post.id) })
        #expect(poll.options == ["Morning", "Evening"] && poll.votes == [3, 5] && !poll.multiple && poll.votersCount == 8)
        #expect(poll.closedAt == nil && !poll.isExpired())
        let snacks = try #require(try a.read { try Post.filter(Column("uri") == actor + "/notes/9").fetchOne($0) })
        let many = try #require(try await a.node.database.read { try $0.polls.find(post: snacks.id) })
        #expect(many.multiple && many.votes == [2, 7] && many.isExpired())

        // New counts only: the poll moves, the post is not edited.
        var counted = Self.mastodonQuestion(actor + "/statuses/1", actor: actor, counts: [4, 9], endTime: "2099-01-01T00:00:00Z")
        counted["updated"] = "2026-12-01T11:00:00Z"
        let update: [String: Any] = ["@context": "https://www.w3.org/ns/activitystreams", "id": actor + "/updates/1", "type": "Update",
                                     "actor": actor, "to": [Self.asPublic], "object": counted]
        #expect(try await evil.deliver(update, to: a, keyId: actor + "#main-key") == 202)
        await InboxWorker(node: a.node).processDue()
        let after = try #require(try await a.node.database.read { try $0.polls.find(post: post.id) })
        #expect(after.votes == [4, 9] && after.votersCount == 13)
        let stored = try #require(try a.read { try Post.fetchOne($0, key: post.id) })
        #expect(stored.editedAt == nil, "a change of counts is not an edit")
        await evil.stop()
        await a.stop()
    }

    @Test("a local vote on a remote poll goes to its author as a named Note; a remote vote on ours is counted once")
    func votesBothWays() async throws {
        let (a, evil) = (try NetworkNode(name: "a"), try HostileOrigin())
        defer { a.remove() }
        try await a.start()
        try await evil.start()
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        evil.serve("/users/ferry", json: evil.actor("ferry"))
        evil.serve("/inbox", json: [:], status: 202)
        let actor = "\(evil.base)/users/ferry"
        let question = Self.mastodonQuestion(actor + "/statuses/1", actor: actor, counts: [0, 0], endTime: "2099-01-01T00:00:00Z")
        #expect(try await evil.deliver(Self.create(question, actor: actor), to: a, keyId: actor + "#main-key") == 202)
        try await eventually("the Question is stored") { try a.read { try Post.filter(Column("uri") == actor + "/statuses/1").fetchCount($0) } == 1 }
        let remote = try #require(try a.read { try Post.filter(Column("uri") == actor + "/statuses/1").fetchOne($0) })

        let (_, counted) = try await PollService(node: a.node).vote(remote.id, choices: [1], by: alice)
        #expect(counted.votes == [0, 1])
        try await eventually("the vote reaches the poll's author") {
            evil.posted.contains { String(decoding: $0.body, as: UTF8.self).contains("\"name\":\"Evening\"") }
        }
        let sent = try #require(evil.posted.first { String(decoding: $0.body, as: UTF8.self).contains("\"name\":\"Evening\"") })
        let vote = try #require(try JSONSerialization.jsonObject(with: Data(sent.body)) as? [String: Any])
        let note = try #require(vote["object"] as? [String: Any])
        #expect(vote["type"] as? String == "Create" && vote["actor"] as? String == alice.uri)
        #expect(note["type"] as? String == "Note" && note["inReplyTo"] as? String == remote.uri && note["to"] as? [String] == [actor])

        // ferry votes in alice's poll: counted once, an unknown choice or a repeat is not.
        var draft = PostService.Draft(text: "Tea or coffee?")
        draft.poll = PollService.Draft(options: ["Tea", "Coffee"], expiresIn: 3600)
        let mine = try await a.node.posts.create(draft, by: alice)
        func ballot(_ n: Int, _ name: String) -> [String: Any] {
            Self.create(["id": actor + "#votes/\(n)", "type": "Note", "name": name, "attributedTo": actor, "to": [alice.uri],
                         "inReplyTo": mine.uri], actor: actor)
        }
        for (n, name) in [(1, "Coffee"), (2, "Coffee"), (3, "Milk"), (4, "Tea")] {
            #expect(try await evil.deliver(ballot(n, name), to: a, keyId: actor + "#main-key") == 202)
        }
        try await eventually("ferry's vote is counted") { try await a.node.database.read { try $0.polls.find(post: mine.id) }?.votes == [0, 1] }
        try await Task.sleep(for: .milliseconds(500))
        let poll = try #require(try await a.node.database.read { try $0.polls.find(post: mine.id) })
        #expect(poll.votes == [0, 1] && poll.votersCount == 1, "a second vote in a single-choice poll and unknown choices are dropped")
        #expect(try a.read { try Post.filter(Column("in_reply_to_id") == mine.id).fetchCount($0) } == 0, "votes are not comments")
        try await eventually("the new counts go out as an Update of the Question") {
            evil.posted.contains { entry in
                let text = String(decoding: entry.body, as: UTF8.self)
                return text.contains("\"type\":\"Update\"") && text.contains("\"Question\"") && text.contains("Coffee")
            }
        }
        await evil.stop()
        await a.stop()
    }
}
