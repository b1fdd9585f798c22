import Benchmarks
@testable import Core
import Foundation
import GRDB
import Storage
import Testing
@testable import FedNode

/// Twenty hostile authorities on one machine, each accepting connections and never answering,
/// must not delay what honest servers send or receive: no set of origins holds more than a
/// bounded share of the inbox worker's slots, the delivery worker's slots, the key fetches or
/// the HTTP clients' connections. Each test checks that the honest thing happened while every
/// request to the hanging servers was still pending (none had timed out), which is what a node
/// whose slots they held could not do.
@Suite("Slow origins", .serialized)
struct SlowOriginsTests {
    private static let public_ = "https://www.w3.org/ns/activitystreams#Public"

    /// Starts A and B with alice@A and bob@B, the one on `follower` following the other, and
    /// waits for the Accept.
    private static func start(_ a: NetworkNode, _ b: NetworkNode, follower: NetworkNode) async throws -> (alice: Account, bob: Account) {
        try await a.start()
        try await b.start()
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let bob = try await b.node.accounts.create(username: "bob", email: "bob@b.test", password: "bob password")
        let (reader, target) = follower === a ? (alice, (name: "bob", node: b)) : (bob, (name: "alice", node: a))
        let followed = try await follower.node.remoteAccounts.resolve(username: target.name, domain: target.node.domain)
        _ = try await follower.node.interactions.follow(followed, by: reader)
        try await eventually("\(follower.name) recorded the Accept") {
            try follower.read { try Follow.filter(Column("state") == "accepted").fetchCount($0) } == 1
        }
        return (alice, bob)
    }

    @Test("80 actors on 20 hanging authorities of one machine send Announces and Creates of posts there: an honest Create is processed while every fetch they caused is still pending")
    func hangingFetchesDoNotHoldTheInbox() async throws {
        let (a, b) = (try NetworkNode(name: "a"), try NetworkNode(name: "b"))
        defer { [a, b].forEach { $0.remove() } }
        let hostile = try HangingOrigins(count: 20)
        defer { hostile.stop() }
        let (alice, bob) = try await Self.start(a, b, follower: a)

        // The attack is queued while A's worker is stopped, then met all at once: 80 items
        // whose objects live on the hanging servers, ahead of the honest one in the queue.
        try await a.restart(workers: false)
        var accepted = 0
        for index in 0..<20 {
            for actor in 0..<4 {
                let name = "h\(actor)"
                let object = "\(hostile.base(index))/objects/\(actor)"
                let id = hostile.actor(name, on: index)
                // Boosts of posts on the hanging servers, and Creates naming their post by id
                // only: A must fetch each before it can store anything.
                let activity: [String: Any] = actor % 2 == 0
                    ? ["@context": "https://www.w3.org/ns/activitystreams", "id": "\(id)/announces/1", "type": "Announce",
                       "actor": id, "to": [Self.public_], "object": object]
                    : ["@context": "https://www.w3.org/ns/activitystreams", "id": "\(id)/notes/1/activity", "type": "Create",
                       "actor": id, "to": [Self.public_], "object": "\(id)/notes/1"]
                let request = try hostile.signedPost(activity, from: name, on: index, to: "http://\(a.domain)/inbox")
                if try await a.node.httpClient.execute(request).status == 202 { accepted += 1 }
            }
        }
        #expect(accepted == 80)
        let post = try await b.node.posts.create(.init(text: "Honest light over the harbour"), by: bob)
        try await eventually("A accepted bob's Create") { try a.read { try InboxItem.fetchCount($0) } == 81 }

        try await a.restart()
        try await eventually("A's worker is fetching the hanging objects") { hostile.held >= 8 }
        // The honest item's first attempt starts (it is claimed, or done) while every hostile fetch
        // is still pending: the slots did not wait for the hanging servers. (Its handler may still
        // meet a passing database error and be retried, which is not what this test is about.)
        try await eventually("A started bob's Create") {
            try a.read { db in
                try InboxItem.filter(Column("actor_uri") == bob.uri)
                    .filter(Column("unfinished_attempts") == 0 && Column("attempts") == 0).fetchCount(db)
            } == 0
        }
        #expect(hostile.abandoned == 0, "bob's Create started while no fetch to the hanging servers had timed out")
        try await eventually("A stored bob's post", within: 60) {
            try a.read { try Post.filter(Column("uri") == post.uri).fetchCount($0) } == 1
        }
        #expect(hostile.held <= a.node.httpClient.configuration.maxInFlightPerAddress,
                "one machine holds at most its address's share of the fetch client")
        await a.stop()
        await b.stop()
    }

    @Test("80 followers on 20 hanging authorities of one machine: a healthy follower receives alice's post while every delivery to them is still pending")
    func hangingInboxesDoNotHoldDelivery() async throws {
        let (a, b) = (try NetworkNode(name: "a"), try NetworkNode(name: "b"))
        defer { [a, b].forEach { $0.remove() } }
        let hostile = try HangingOrigins(count: 20)
        defer { hostile.stop() }
        let (alice, _) = try await Self.start(a, b, follower: b)

        // Four followers per hanging authority, each with an inbox of its own: A's Accepts to
        // them alone would fill every delivery slot of a node without a bound per machine.
        for index in 0..<20 {
            for actor in 0..<4 {
                let id = hostile.actor("f\(actor)", on: index)
                let follow: [String: Any] = ["@context": "https://www.w3.org/ns/activitystreams", "id": "\(id)/follows/1",
                                             "type": "Follow", "actor": id, "object": alice.uri]
                let request = try hostile.signedPost(follow, from: "f\(actor)", on: index, to: "http://\(a.domain)/inbox")
                #expect(try await a.node.httpClient.execute(request).status == 202)
            }
        }
        try await eventually("A accepted the 80 follows") {
            try a.read { try Follow.filter(Column("state") == "accepted").fetchCount($0) } == 80
        }
        try await eventually("A is sending to the hanging inboxes") { hostile.held >= 8 }

        let post = try await a.node.posts.create(.init(text: "Morning over the breakwater"), by: alice)
        try await eventually("B received alice's post") { try b.read { try Post.filter(Column("uri") == post.uri).fetchCount($0) } == 1 }
        #expect(hostile.abandoned == 0, "B had the post while no delivery to the hanging inboxes had timed out")
        await a.stop()
        await b.stop()
    }

    @Test("30 signed POSTs whose keyIds hang on 20 authorities of one machine: a new honest actor's first POST is answered while they all wait")
    func hangingKeyFetchesDoNotHoldOtherSenders() async throws {
        let a = try NetworkNode(name: "a")
        defer { a.remove() }
        let hostile = try HangingOrigins(count: 20, hangActors: true)
        defer { hostile.stop() }
        let honest = try HostileOrigin()
        try await a.start(workers: false)
        try await honest.start()
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")

        let attack = Task {
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<30 {
                    let (authority, name) = (index % 20, "k\(index)")
                    let id = hostile.actor(name, on: authority)
                    let follow: [String: Any] = ["@context": "https://www.w3.org/ns/activitystreams", "id": "\(id)/follows/1",
                                                 "type": "Follow", "actor": id, "object": alice.uri]
                    guard let request = try? hostile.signedPost(follow, from: name, on: authority, to: "http://\(a.domain)/inbox")
                    else { continue }
                    // A client each: thirty senders, as thirty hostile servers would be.
                    group.addTask {
                        let client = CurlHTTPClient(configuration: .init(userAgent: "test", totalTimeout: .seconds(60), allowPrivateAddresses: true))
                        defer { client.shutdown() }
                        _ = try? await client.execute(request)
                    }
                }
            }
        }
        try await eventually("A is fetching the hanging keys") { hostile.held >= 12 }

        var actor = honest.actor("newcomer")
        for key in ["followers", "following", "outbox"] { actor[key] = nil }
        honest.serve("/users/newcomer", json: actor)
        let id = "\(honest.base)/users/newcomer"
        let follow: [String: Any] = ["@context": "https://www.w3.org/ns/activitystreams", "id": "\(id)/follows/1",
                                     "type": "Follow", "actor": id, "object": alice.uri]
        #expect(try await honest.deliver(follow, to: a, keyId: id + "#main-key") == 202)
        #expect(hostile.abandoned == 0, "the newcomer was answered while no hanging key fetch had timed out")
        hostile.stop()
        await attack.value
        await honest.stop()
        await a.stop()
    }
}
