@testable import Core
import Foundation
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// A post's poll in the web app, without JavaScript: a form for whoever may vote, the results
/// for the author, after a vote and once it ends.
@Suite("Web app: polls")
struct WebPollTests {
    typealias Jar = WebSessionTests.Jar

    @Test("the post page offers the choices, takes a vote, then shows the results; the author sees results only")
    func voteOnThePostPage() async throws {
        let test = try TestNode.make(); defer { test.remove() }
        let alice = try await test.node.accounts.create(username: "alice", email: "alice@example.com", password: "correct horse battery")
        _ = try await test.node.accounts.create(username: "bob", email: "bob@example.com", password: "correct horse battery")
        var draft = PostService.Draft(text: "Which shot?")
        draft.poll = PollService.Draft(options: ["Left <b>one</b>", "Right"], expiresIn: 3600)
        let post = try await test.node.posts.create(draft, by: alice)
        try await test.withClient { client in
            var jar = try await WebSessionTests.signIn(client, email: "bob@example.com", password: "correct horse battery")
            let page = try await WebSessionTests.get(client, "/@alice/\(post.id)", jar: &jar)
            #expect(page.text.contains("action=\"/web/statuses/\(post.id)/vote\""))
            #expect(page.text.contains("type=\"radio\" name=\"choices\" value=\"1\""))
            #expect(page.text.contains("Left &lt;b&gt;one&lt;/b&gt;"), "choices are escaped")
            #expect(page.text.contains("0 votes · ends in"))
            let csrf = jar.cookies[CSRF.cookieName] ?? ""

            #expect(try await WebSessionTests.post(client, "/web/statuses/\(post.id)/vote", [("choices", "1")], jar: jar).status == .forbidden,
                    "a vote needs the CSRF token")
            let voted = try await WebSessionTests.post(client, "/web/statuses/\(post.id)/vote",
                                                       [("choices", "1"), ("csrf", csrf), ("back", "/@alice/\(post.id)")], jar: jar)
            #expect(voted.status == .seeOther || voted.status == .found)
            let after = try await WebSessionTests.get(client, "/@alice/\(post.id)", jar: &jar)
            #expect(!after.text.contains("/vote\""), "no second vote is offered")
            #expect(after.text.contains("class=\"chosen\"") && after.text.contains("100%") && after.text.contains("1 vote · ends in"))
            let poll = try #require(try await test.node.database.read { try $0.polls.find(post: post.id) })
            #expect(poll.votes == [0, 1])

            var authorJar = try await WebSessionTests.signIn(client, email: "alice@example.com", password: "correct horse battery")
            let own = try await WebSessionTests.get(client, "/@alice/\(post.id)", jar: &authorJar)
            #expect(!own.text.contains("/vote\"") && own.text.contains("poll-results"))
        }
    }
}
