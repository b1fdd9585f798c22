@testable import Core
import Foundation
import GRDB
import Signatures
import Storage
import Testing
@testable import FedNode

/// What an unauthenticated request can make a node do: fetch one bounded key document, store
/// nothing; the actor is stored only once a signature verified.
@Suite("Inbox key fetches before verification", .serialized)
struct InboxKeyFetchTests {
    static func follow(_ actor: String, _ target: String, id: String) -> [String: Any] {
        ["@context": "https://www.w3.org/ns/activitystreams", "id": id, "type": "Follow", "actor": actor, "object": target]
    }

    @Test("a bad signature costs one GET of the key document and stores nothing; a good one stores the actor")
    func badSignatureFetchesOnlyTheKey() async throws {
        let (a, evil) = (try NetworkNode(name: "a"), try HostileOrigin())
        defer { a.remove() }
        try await a.start(workers: false)
        try await evil.start()
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let mallory = evil.actor("mallory")
        let id = try #require(mallory["id"] as? String)
        evil.serve("/users/mallory", json: mallory)
        for path in ["/users/mallory/followers", "/users/mallory/following", "/users/mallory/outbox"] {
            evil.serve(path, json: ["id": evil.base + path, "type": "OrderedCollection", "totalItems": 7])
        }
        let activity = Self.follow(id, alice.uri, id: id + "/follows/1")

        let forged = try await evil.deliver(activity, to: a, keyId: id + "#main-key", signingKey: try RSAPrivateKey.generate())
        #expect(forged == 401)
        #expect(evil.hits == ["/users/mallory"], "only the key's document is fetched, once")
        #expect(try a.read { try Account.withURI(id).fetchCount($0) } == 0, "nothing stored for an unverified request")
        #expect(try a.read { try InboxItem.fetchCount($0) } == 0)

        #expect(try await evil.deliver(activity, to: a, keyId: id + "#main-key") == 202)
        let stored = try #require(try a.read { try Account.withURI(id).fetchOne($0) })
        #expect(stored.publicKeyId == id + "#main-key")
        #expect(stored.inboxUrl == id + "/inbox")
        try await eventually("the verified actor's figures are read from its origin") {
            try a.read { try Account.withURI(id).fetchOne($0)?.followersCount } == 7
        }
        await evil.stop()
        await a.stop()
    }

    @Test("actor documents over 1 MiB are not read, whatever the signature")
    func oversizedActorDocumentIsRefused() async throws {
        let (a, evil) = (try NetworkNode(name: "a"), try HostileOrigin())
        defer { a.remove() }
        try await a.start(workers: false)
        try await evil.start()
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        // 2 MiB: under the HTTP client's 4 MiB default, over the key document limit.
        let huge = evil.actor("huge", extra: ["summary": String(repeating: "<b>x</b>", count: 2 * 1024 * 1024 / 8)])
        let id = try #require(huge["id"] as? String)
        evil.serve("/users/huge", json: huge)

        let status = try await evil.deliver(Self.follow(id, alice.uri, id: id + "/follows/1"), to: a, keyId: id + "#main-key")
        #expect(status == 401)
        #expect(try a.read { try Account.withURI(id).fetchCount($0) + InboxItem.fetchCount($0) } == 0)
        await evil.stop()
        await a.stop()
    }

    @Test("a key document that takes longer than the key timeout to arrive is given up on with 503, so the sender retries")
    func slowKeyDocumentIsGivenUp() async throws {
        let (a, evil) = (try NetworkNode(name: "a"), try HostileOrigin())
        defer { a.remove() }
        try await a.start(workers: false)
        try await evil.start()
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let body = Array(try JSONSerialization.data(withJSONObject: evil.actor("sloth"), options: [.withoutEscapingSlashes]))
        // Slower than the key timeout, well within the HTTP client's own 30 s.
        evil.serve("/users/sloth", .init(body: body, delay: RemoteLimits.keyFetchTimeout + .seconds(3)))
        let id = "\(evil.base)/users/sloth"
        // A timeout is not a bad signature: 503 (with Retry-After) keeps the sender retrying, where
        // a 401 makes Mastodon give the activity up.
        #expect(try await evil.deliver(Self.follow(id, alice.uri, id: id + "/follows/1"), to: a, keyId: id + "#main-key") == 503)
        #expect(try a.read { try Account.withURI(id).fetchCount($0) } == 0)
        await evil.stop()
        await a.stop()
    }

    @Test("remote key fetches are bounded node-wide")
    func concurrentKeyFetchesAreBounded() async throws {
        let (a, evil) = (try NetworkNode(name: "a"), try HostileOrigin())
        defer { a.remove() }
        try await a.start(workers: false)
        try await evil.start()
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let count = 30
        for index in 0..<count {
            // No collections: only key documents are fetched, so every request the origin sees is one.
            var actor = evil.actor("slow\(index)")
            for key in ["followers", "following", "outbox"] { actor[key] = nil }
            let body = Array(try JSONSerialization.data(withJSONObject: actor, options: [.withoutEscapingSlashes]))
            evil.serve("/users/slow\(index)", .init(body: body, delay: .milliseconds(300)))
        }
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<count {
                let id = "\(evil.base)/users/slow\(index)"
                group.addTask { try await evil.deliver(Self.follow(id, alice.uri, id: id + "/follows/1"), to: a, keyId: id + "#main-key") }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.allSatisfy { $0 == 202 }, "every sender is served in turn")
        #expect(evil.hits.count == count)
        #expect(evil.maxInFlight <= RemoteLimits.concurrentKeyFetches)
        await evil.stop()
        await a.stop()
    }

    @Test("a key that lives off its actor's host (reached by a redirect) speaks for nobody; blocked actors are refused")
    func keyOnAnotherHostIsRefused() async throws {
        let (a, evil) = (try NetworkNode(name: "a"), try HostileOrigin())
        defer { a.remove() }
        try await a.start(workers: false)
        try await evil.start()
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        // The actor lives on localhost:PORT, which A blocks; its key is named on 127.0.0.1:PORT
        // and redirects to the actor document.
        let blockedHost = "localhost:\(evil.port)"
        let actorId = "http://\(blockedHost)/users/evil"
        let keyId = "\(evil.base)/keys/evil"
        try await a.node.database.writeSQL { try DomainBlock(domain: blockedHost).insert($0) }
        var document = evil.actor("evil", extra: ["id": actorId, "inbox": actorId + "/inbox"])
        document["publicKey"] = ["id": keyId, "owner": actorId, "publicKeyPem": evil.key.publicKey.spkiPEM]
        document["endpoints"] = nil
        evil.serve("/users/evil", json: document)
        evil.serve("/keys/evil", .init(status: 302, location: actorId))

        let status = try await evil.deliver(Self.follow(actorId, alice.uri, id: actorId + "/follows/1"), to: a, keyId: keyId)
        #expect(status == 403)
        #expect(try a.read { try Account.withURI(actorId).fetchCount($0) + InboxItem.fetchCount($0) + Follow.fetchCount($0) } == 0)
        #expect(evil.hits.isEmpty, "refused before anything is fetched")
        await evil.stop()
        await a.stop()
    }

    @Test("an actor whose inbox is on another host is refused; requests signed for another host are refused")
    func foreignInboxAndForeignHost() async throws {
        let (a, evil) = (try NetworkNode(name: "a"), try HostileOrigin())
        defer { a.remove() }
        try await a.start(workers: false)
        try await evil.start()
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let sneaky = evil.actor("sneaky", extra: ["inbox": "http://victim.example/inbox"])
        let id = try #require(sneaky["id"] as? String)
        evil.serve("/users/sneaky", json: sneaky)
        let status = try await evil.deliver(Self.follow(id, alice.uri, id: id + "/follows/1"), to: a, keyId: id + "#main-key")
        #expect(status == 400)
        #expect(try a.read { try Account.withURI(id).fetchCount($0) } == 0)

        let honest = evil.actor("honest")
        let honestId = try #require(honest["id"] as? String)
        evil.serve("/users/honest", json: honest)
        let replayed = try await evil.deliver(Self.follow(honestId, alice.uri, id: honestId + "/follows/1"), to: a,
                                              keyId: honestId + "#main-key", signedHost: "other.example")
        #expect(replayed == 401, "a signature made for another server is not accepted here")
        #expect(try a.read { try InboxItem.fetchCount($0) } == 0)
        await evil.stop()
        await a.stop()
    }
}
