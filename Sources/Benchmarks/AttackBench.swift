import Core
import FedNode
import Foundation
import Logging
import Storage

/// Part 8, "under attack": two nodes in this process on 127.0.0.1 (A, the one attacked, and B,
/// an honest server), an honest newcomer on 127.0.0.2, and hostile servers on 127.0.0.3 and
/// 127.0.0.4 (twenty authorities each, one machine each, accepting connections and never
/// answering). Three latencies are measured first on a quiet node and then under all three
/// attacks at once:
/// - an honest activity: from bob@B's post to A having stored it, while 80 actors on the
///   hanging authorities have sent A boosts and Creates of posts there (A must fetch each);
/// - a delivery: from alice@A's post to B having stored it, while A's Accepts to 80 followers
///   with inboxes on the hanging authorities are pending;
/// - a first contact: a never-seen actor's signed POST until its answer, while 30 signed POSTs
///   whose keyIds hang on the other twenty authorities wait for their keys.
struct AttackBench {
    /// What was measured, in seconds.
    struct Figures: Sendable {
        var inbox: (quiet: Double, attacked: Double)
        var delivery: (quiet: Double, attacked: Double)
        var firstContact: (quiet: Double, attacked: Double)
        /// Requests the hanging servers held when the attacked figures were taken.
        var held: Int
        /// Held requests the node had given up on (timed out) by then.
        var abandoned: Int
    }

    let settings: BenchSettings
    let log: @Sendable (String) -> Void
    private static let publicAudience = "https://www.w3.org/ns/activitystreams#Public"

    func run() async throws -> Figures {
        let directory = settings.runDirectory("attack")
        try? FileManager.default.removeItem(atPath: directory)
        let a = try Self.node("a", directory: directory)
        let b = try Self.node("b", directory: directory)
        let servers = [Task { try await serve(a.node) }, Task { try await serve(b.node) }]
        defer { servers.forEach { $0.cancel() } }
        try await Self.waitUntilServing(a)
        try await Self.waitUntilServing(b)
        let (fetching, keys, newcomers) = (try HangingOrigins(count: 20), try HangingOrigins(count: 20, address: "127.0.0.4", hangActors: true),
                                           try HangingOrigins(count: 1, address: "127.0.0.2"))
        defer { [fetching, keys, newcomers].forEach { $0.stop() } }

        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.bench", password: "bench-password")
        let bob = try await b.node.accounts.create(username: "bob", email: "bob@b.bench", password: "bench-password")
        let (bobOnA, aliceOnB) = (try await a.node.remoteAccounts.resolve(username: "bob", domain: b.domain),
                                  try await b.node.remoteAccounts.resolve(username: "alice", domain: a.domain))
        _ = try await a.node.interactions.follow(bobOnA, by: alice)
        _ = try await b.node.interactions.follow(aliceOnB, by: bob)
        try await Self.until("both follows accepted", limit: 30) {
            let onA = try await a.node.database.read { try $0.follows.isAccepted(follower: alice.id, target: bobOnA.id) }
            let onB = try await b.node.database.read { try $0.follows.isAccepted(follower: bob.id, target: aliceOnB.id) }
            return onA && onB
        }

        log("attack: quiet figures")
        var quiet = (inbox: 0.0, delivery: 0.0, firstContact: 0.0)
        quiet.inbox = try await Self.carry(bob, from: b, to: a, text: "quiet inbox")
        quiet.delivery = try await Self.carry(alice, from: a, to: b, text: "quiet delivery")
        quiet.firstContact = try await Self.firstContact("quiet", origin: newcomers, to: a, target: alice.uri)

        log("attack: 80 actors and 80 followers on 20 hanging authorities, 30 hanging keyIds")
        try await Self.sendBoostsAndCreates(from: fetching, to: a)
        try await Self.sendFollows(from: fetching, to: a, target: alice.uri)
        let keyAttack = Self.sendWithHangingKeys(from: keys, to: a, target: alice.uri)
        defer { keyAttack.cancel() }
        try await Self.until("the hanging servers hold A's requests", limit: 30) { fetching.held >= 16 && keys.held >= 12 }

        log("attack: attacked figures")
        var attacked = (inbox: 0.0, delivery: 0.0, firstContact: 0.0)
        attacked.inbox = try await Self.carry(bob, from: b, to: a, text: "attacked inbox")
        attacked.delivery = try await Self.carry(alice, from: a, to: b, text: "attacked delivery")
        attacked.firstContact = try await Self.firstContact("attacked", origin: newcomers, to: a, target: alice.uri)
        return Figures(inbox: (quiet.inbox, attacked.inbox), delivery: (quiet.delivery, attacked.delivery),
                       firstContact: (quiet.firstContact, attacked.firstContact),
                       held: fetching.held + keys.held, abandoned: fetching.abandoned + keys.abandoned)
    }

    /// A test-mode node on 127.0.0.1 with its data under `directory/name`.
    private static func node(_ name: String, directory: String) throws -> (node: Node, domain: String) {
        let port = try LoopbackSocket.freePort()
        var configuration = NodeConfiguration(domain: "127.0.0.1:\(port)", testMode: true)
        configuration.port = port
        configuration.dataDirectory = directory + "/" + name
        configuration.passwordCost = 10
        var logger = Logger(label: "bench-attack-\(name)")
        logger.logLevel = .critical
        return (try Node(configuration: configuration, logger: logger), configuration.domain)
    }

    private static func waitUntilServing(_ node: (node: Node, domain: String)) async throws {
        try await until("\(node.domain) serving", limit: 30) {
            (try? await node.node.httpClient.execute(HTTPClientRequest(url: "http://\(node.domain)/healthz")))?.status == 200
        }
    }

    /// Seconds from `author`'s post on `origin` to `target` having stored it.
    private static func carry(_ author: Account, from origin: (node: Node, domain: String), to target: (node: Node, domain: String),
                              text: String) async throws -> Double {
        let started = MonotonicClock.now()
        let post = try await origin.node.posts.create(PostService.Draft(text: text), by: author)
        try await until("\(text) arrived", limit: 120) { try await target.node.database.read { try $0.posts.exists(uri: post.uri) } }
        return MonotonicClock.seconds(from: started, to: MonotonicClock.now())
    }

    /// Seconds from a never-seen actor's signed Follow to its answer.
    private static func firstContact(_ name: String, origin: HangingOrigins, to target: (node: Node, domain: String),
                                     target object: String) async throws -> Double {
        let id = origin.actor(name, on: 0)
        let follow: [String: Any] = ["@context": "https://www.w3.org/ns/activitystreams", "id": id + "/follows/1", "type": "Follow",
                                     "actor": id, "object": object]
        let request = try origin.signedPost(follow, from: name, on: 0, to: "http://\(target.domain)/inbox")
        let client = CurlHTTPClient(configuration: .init(userAgent: "fednode-bench/1", totalTimeout: .seconds(120), allowPrivateAddresses: true))
        defer { client.shutdown() }
        let started = MonotonicClock.now()
        let status = try await client.execute(request).status
        guard status == 202 else { throw BenchError.setup("the newcomer's Follow was answered \(status)") }
        return MonotonicClock.seconds(from: started, to: MonotonicClock.now())
    }

    /// Four actors per authority boost, or create, a post that lives on the hanging server.
    private static func sendBoostsAndCreates(from origins: HangingOrigins, to target: (node: Node, domain: String)) async throws {
        for index in origins.ports.indices {
            for actor in 0..<4 {
                let (name, id) = ("b\(actor)", origins.actor("b\(actor)", on: index))
                let activity: [String: Any] = actor % 2 == 0
                    ? ["@context": "https://www.w3.org/ns/activitystreams", "id": id + "/announces/1", "type": "Announce", "actor": id,
                       "to": [publicAudience], "object": "\(origins.base(index))/objects/\(actor)"]
                    : ["@context": "https://www.w3.org/ns/activitystreams", "id": id + "/notes/1/activity", "type": "Create", "actor": id,
                       "to": [publicAudience], "object": id + "/notes/1"]
                _ = try await target.node.httpClient.execute(origins.signedPost(activity, from: name, on: index, to: "http://\(target.domain)/inbox"))
            }
        }
    }

    /// Four actors per authority follow `target`: the Accepts go to inboxes that never answer.
    private static func sendFollows(from origins: HangingOrigins, to target: (node: Node, domain: String), target object: String) async throws {
        for index in origins.ports.indices {
            for actor in 0..<4 {
                let (name, id) = ("f\(actor)", origins.actor("f\(actor)", on: index))
                let follow: [String: Any] = ["@context": "https://www.w3.org/ns/activitystreams", "id": id + "/follows/1", "type": "Follow",
                                             "actor": id, "object": object]
                _ = try await target.node.httpClient.execute(origins.signedPost(follow, from: name, on: index, to: "http://\(target.domain)/inbox"))
            }
        }
    }

    /// Thirty signed POSTs whose keys never arrive, each from a client of its own (thirty senders).
    private static func sendWithHangingKeys(from origins: HangingOrigins, to target: (node: Node, domain: String), target object: String) -> Task<Void, Never> {
        Task {
            await withTaskGroup(of: Void.self) { group in
                for number in 0..<30 {
                    let (index, name) = (number % origins.ports.count, "k\(number)")
                    let id = origins.actor(name, on: index)
                    let follow: [String: Any] = ["@context": "https://www.w3.org/ns/activitystreams", "id": id + "/follows/1", "type": "Follow",
                                                 "actor": id, "object": object]
                    guard let request = try? origins.signedPost(follow, from: name, on: index, to: "http://\(target.domain)/inbox") else { continue }
                    group.addTask {
                        let client = CurlHTTPClient(configuration: .init(userAgent: "fednode-bench/1", totalTimeout: .seconds(60), allowPrivateAddresses: true))
                        defer { client.shutdown() }
                        _ = try? await client.execute(request)
                    }
                }
            }
        }
    }

    /// Polls `condition` every 10 ms.
    /// - Throws: `BenchError.timedOut` after `limit` seconds.
    private static func until(_ what: String, limit: Double, _ condition: () async throws -> Bool) async throws {
        let deadline = MonotonicClock.now() + UInt64(limit * 1e9)
        while MonotonicClock.now() < deadline {
            if (try? await condition()) == true { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw BenchError.timedOut(what)
    }
}
