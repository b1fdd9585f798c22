@testable import Core
import Foundation
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// Polls over HTTP: made with a post, voted on, read, refused when malformed, and ended.
@Suite("Client API: polls")
struct PollsTests {
    @Test("a poll is posted, shown on the status, voted once, and its counts are seen by everyone")
    func postVoteRead() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, aliceToken) = try await t.user("alice")
        let (_, bobToken) = try await t.user("bob")
        let (_, carolToken) = try await t.user("carol")
        try await t.withClient { client async throws in
            let posted = try await client.api(.post, "/api/v1/statuses", token: aliceToken, json: [
                "status": "Which shot?", "poll": ["options": ["Left", "Right", "Neither"], "expires_in": 3600, "multiple": false] as [String: Any],
            ])
            #expect(posted.status == .ok)
            let poll = try #require(posted.json?["poll"] as? [String: Any])
            let id = try #require(poll["id"] as? String)
            #expect((poll["options"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Left", "Right", "Neither"])
            #expect(poll["expired"] as? Bool == false && poll["multiple"] as? Bool == false && poll["votes_count"] as? Int == 0)
            #expect(poll["voted"] as? Bool == true, "the author counts as having voted, as on Mastodon")
            #expect(poll["expires_at"] is String)

            let voted = try await client.api(.post, "/api/v1/polls/\(id)/votes", token: bobToken, json: ["choices": ["1"]])
            #expect(voted.status == .ok)
            #expect(voted.json?["voted"] as? Bool == true)
            #expect(voted.json?["own_votes"] as? [Int] == [1])
            #expect(voted.json?["votes_count"] as? Int == 1 && voted.json?["voters_count"] as? Int == 1)
            let again = try await client.api(.post, "/api/v1/polls/\(id)/votes", token: bobToken, json: ["choices": ["0"]])
            #expect(again.status == .unprocessableContent)
            #expect(try await client.api(.post, "/api/v1/polls/\(id)/votes", token: aliceToken, json: ["choices": ["0"]]).status
                == .unprocessableContent, "no vote in one's own poll")
            for choices: [Any] in [["0", "1"], ["7"], ["x"], []] {
                let bad = try await client.api(.post, "/api/v1/polls/\(id)/votes", token: carolToken, json: ["choices": choices])
                #expect(bad.status == .unprocessableContent, "\(choices)")
            }

            let seen = try #require(try await client.api(.get, "/api/v1/polls/\(id)", token: carolToken).json)
            #expect((seen["options"] as? [[String: Any]])?.map { $0["votes_count"] as? Int } == [0, 1, 0])
            #expect(seen["voted"] as? Bool == false && seen["own_votes"] as? [Int] == [])
            let anonymous = try #require(try await client.api(.get, "/api/v1/polls/\(id)").json)
            #expect(anonymous["voted"] == nil && anonymous["votes_count"] as? Int == 1)
            let status = try #require(try await client.api(.get, "/api/v1/statuses/\(id)", token: bobToken).json)
            #expect((status["poll"] as? [String: Any])?["own_votes"] as? [Int] == [1])
            #expect(try await client.api(.get, "/api/v1/polls/99999", token: bobToken).status == .notFound)
        }
    }

    @Test("multiple-choice polls take several choices; hidden totals show to the author only until the end")
    func multipleAndHidden() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, aliceToken) = try await t.user("alice")
        let (_, bobToken) = try await t.user("bob")
        try await t.withClient { client async throws in
            // Form-encoded, as Tusky sends it.
            let posted = try await client.api(.post, "/api/v1/statuses", token: aliceToken, form: [
                "status=Pick%20any", "poll%5Boptions%5D%5B%5D=Sea", "poll%5Boptions%5D%5B%5D=Hills", "poll%5Boptions%5D%5B%5D=Town",
                "poll%5Bexpires_in%5D=600", "poll%5Bmultiple%5D=true", "poll%5Bhide_totals%5D=true",
            ].joined(separator: "&"))
            #expect(posted.status == .ok)
            let id = try #require((posted.json?["poll"] as? [String: Any])?["id"] as? String)
            let voted = try #require(try await client.api(.post, "/api/v1/polls/\(id)/votes", token: bobToken,
                                                          json: ["choices": [0, 2]]).json)
            #expect(voted["own_votes"] as? [Int] == [0, 2])
            #expect((voted["options"] as? [[String: Any]])?.allSatisfy { $0["votes_count"] is NSNull } == true)
            let forAuthor = try #require(try await client.api(.get, "/api/v1/polls/\(id)", token: aliceToken).json)
            #expect((forAuthor["options"] as? [[String: Any]])?.map { $0["votes_count"] as? Int } == [1, 0, 1])
            #expect(forAuthor["votes_count"] as? Int == 2 && forAuthor["voters_count"] as? Int == 1)
        }
    }

    @Test("malformed polls are refused with nothing posted: 1 or 100 options, blank or long or repeated ones, bad durations")
    func refused() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        try await t.withClient { client async throws in
            let cases: [[String: Any]] = [
                ["options": ["only"], "expires_in": 3600],
                ["options": (1...100).map { "option \($0)" }, "expires_in": 3600],
                ["options": ["a", " "], "expires_in": 3600],
                ["options": ["a", String(repeating: "b", count: 51)], "expires_in": 3600],
                ["options": ["a", "a"], "expires_in": 3600],
                ["options": ["a", "b"], "expires_in": 60],
                ["options": ["a", "b"], "expires_in": 99_999_999],
                ["options": ["a", "b"], "expires_in": "soon"],
                ["options": ["a", "b"]],
            ]
            for poll in cases {
                let response = try await client.api(.post, "/api/v1/statuses", token: token, json: ["status": "Poll?", "poll": poll])
                #expect(response.status == .unprocessableContent, "\(poll)")
                #expect(response.json?["error"] is String)
            }
            #expect(try await client.api(.get, "/api/v1/timelines/home", token: token).jsonArray?.isEmpty == true)
        }
    }

    @Test("an ended poll takes no vote; its end notifies the author and the voters once")
    func ending() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, aliceToken) = try await t.user("alice")
        let (_, bobToken) = try await t.user("bob")
        let (_, carolToken) = try await t.user("carol")
        try await t.withClient { client async throws in
            let posted = try await client.api(.post, "/api/v1/statuses", token: aliceToken, json: [
                "status": "Quick one", "poll": ["options": ["Yes", "No"], "expires_in": 300] as [String: Any],
            ])
            let id = try #require((posted.json?["poll"] as? [String: Any])?["id"] as? String)
            #expect(try await client.api(.post, "/api/v1/polls/\(id)/votes", token: bobToken, json: ["choices": ["0"]]).status == .ok)

            let later = Date().addingTimeInterval(301)
            #expect(try await PollService(node: t.node).endDue(now: later) == 1)
            #expect(try await PollService(node: t.node).endDue(now: later) == 0, "an end is notified once")
            let ended = try #require(try await client.api(.get, "/api/v1/polls/\(id)", token: carolToken).json)
            #expect(ended["expired"] as? Bool == true)
            #expect(try await client.api(.post, "/api/v1/polls/\(id)/votes", token: carolToken, json: ["choices": ["1"]]).status
                == .unprocessableContent)
            for token in [aliceToken, bobToken] {
                let notes = try await client.api(.get, "/api/v1/notifications?types[]=poll", token: token).jsonArray ?? []
                #expect(notes.count == 1)
                #expect((notes.first?["status"] as? [String: Any])?["id"] as? String == id)
            }
            #expect(try await client.api(.get, "/api/v1/notifications?types[]=poll", token: carolToken).jsonArray?.isEmpty == true)
        }
    }
}
