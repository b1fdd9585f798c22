@testable import Core
import Foundation
import GRDB
import Storage
import Testing
@testable import FedNode

/// The inbox worker processes activities concurrently: a server whose posts take long to fetch
/// holds only its own slots (per-domain cap), and another server's Follow goes through meanwhile.
@Suite("Inbox worker concurrency", .serialized)
struct InboxConcurrencyTests {
    private func create(_ origin: SlowOrigin, actor name: String, post id: Int) -> String {
        let actor = origin.actor(name)
        return """
            {"@context":"https://www.w3.org/ns/activitystreams","id":"\(actor)/statuses/\(id)/activity","type":"Create",
             "actor":"\(actor)","to":["https://www.w3.org/ns/activitystreams#Public"],"object":"\(actor)/statuses/\(id)"}
            """
    }

    @Test("Creates whose posts sit on a slow server do not delay another server's Follow; that server holds at most 4 slots")
    func slowOriginCostsOnlyItsOwnItems() async throws {
        let (a, b, origin) = (try NetworkNode(name: "a"), try NetworkNode(name: "b"), try SlowOrigin())
        defer { [a, b].forEach { $0.remove() } }
        try await a.start()
        try await b.start()
        try await origin.start(client: a.node.httpClient)
        defer { Task { await origin.stop() } }
        _ = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let bob = try await b.node.accounts.create(username: "bob", email: "bob@b.test", password: "bob password")

        // Six actors of the slow server each send a Create that names its post by id only, so
        // A must fetch each post from the slow server.
        let actors = (0..<6).map { "slow\($0)" }
        // Taken before any fetch can start, so "within the fetch timeout" below is conservative:
        // on a loaded machine the first fetches may begin well before they are seen held.
        let fetchesStarted = ContinuousClock.now
        for (index, name) in actors.enumerated() {
            let request = try origin.signedPost(create(origin, actor: name, post: index), from: name, to: "http://\(a.domain)/inbox")
            #expect(try await a.node.httpClient.execute(request).status == 202)
        }
        try await eventually("A is fetching the slow posts, four at once") { origin.held == 4 }

        // Meanwhile bob@B follows alice@A: A processes the Follow and answers Accept while
        // every slow fetch is still pending.
        let aliceOnB = try await b.node.remoteAccounts.resolve(username: "alice", domain: a.domain)
        _ = try await b.node.interactions.follow(aliceOnB, by: bob)
        // Generous for a loaded machine: the causality below is what the test is about.
        try await eventually("B received A's Accept", within: 60) {
            try b.read { try Follow.filter(Column("state") == "accepted").fetchCount($0) } == 1
        }
        #expect(origin.answered == 0, "the Follow was processed while the slow fetches were still pending")
        // Once A's fetches time out (a very loaded machine), their slots free and the server
        // holds abandoned requests beside new ones: the slot count is only meaningful before.
        let withinFetchTimeout = ContinuousClock.now - fetchesStarted < RemoteLimits.objectFetchTimeout
        if withinFetchTimeout { #expect(origin.held == 4, "the slow server never held more than its four slots") }

        origin.release()
        // Fetches that timed out meanwhile are retried with backoff (20 s, then 40 s, ...): on a
        // machine slow enough for that, the posts arrive on those retries.
        try await eventually("A stored all six slow posts", within: withinFetchTimeout ? 30 : 180) {
            try a.read { try Post.filter(Column("uri").like(origin.base + "%")).fetchCount($0) } == 6
        }
        if withinFetchTimeout { #expect(origin.maxHeld == 4, "at most four items of one domain were in flight at once") }
        try await eventually("A's inbox queue is empty") { try a.read { try InboxItem.fetchCount($0) } == 0 }
        await origin.stop()
        await a.stop()
        await b.stop()
    }
}
