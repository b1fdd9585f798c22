@testable import Core
import Foundation
import GRDB
import Storage
import Testing
@testable import FedNode

/// Followers-only posts are served over ActivityPub only to signed fetches by accepted
/// followers; everyone else (anonymous, the fetching node's instance actor, non-followers)
/// gets 404, as if the post did not exist.
@Suite("Authorized fetch of followers-only posts", .serialized)
struct AuthorizedFetchTests {
    @Test("a follower's signed GET reads a followers-only post; others get 404")
    func followersOnlyFetch() async throws {
        let (a, b) = (try NetworkNode(name: "fetch-a"), try NetworkNode(name: "fetch-b"))
        defer { [a, b].forEach { $0.remove() } }
        for node in [a, b] { try await node.start() }
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let bob = try await b.node.accounts.create(username: "bob", email: "bob@b.test", password: "bob password")
        let carol = try await b.node.accounts.create(username: "carol", email: "carol@b.test", password: "carol password")
        let aliceOnB = try await b.node.remoteAccounts.resolve(username: "alice", domain: a.domain)
        try await b.node.interactions.follow(aliceOnB, by: bob)
        try await eventually("bob's follow accepted") {
            try b.read { try Follow.filter(Column("account_id") == bob.id && Column("state") == "accepted").fetchCount($0) } == 1
        }
        var draft = PostService.Draft(text: "Only for my followers")
        draft.visibility = .private
        let post = try await a.node.posts.create(draft, by: alice)

        let fetcher = ObjectFetcher(node: b.node)
        let note = try await fetcher.fetch(post.uri, as: bob)
        #expect(note.id == post.uri)
        #expect(note.content?.contains("Only for my followers") == true)

        for (who, account) in [("carol, not a follower", Optional(carol)), ("the instance actor", nil)] {
            await #expect(throws: NodeError.self, "\(who) must not read it") { _ = try await fetcher.fetch(post.uri, as: account) }
        }
        let anonymous = try await a.node.httpClient.execute(HTTPClientRequest(url: post.uri, headers: [("Accept", "application/activity+json")]))
        #expect(anonymous.status == 404)

        // The public version of the same thing is open to everyone.
        let open = try await a.node.posts.create(.init(text: "For everyone"), by: alice)
        #expect(try await fetcher.fetch(open.uri).id == open.uri)
    }
}
