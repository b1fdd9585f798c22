@testable import Core
import Foundation
import GRDB
import Storage
import Testing
@testable import FedNode

/// A followed hashtag pulls posts from other servers into the home timeline: once node A
/// receives a public post from node B (here because another account on A follows its author),
/// every account on A following one of its hashtags finds it at home.
@Suite("Followed hashtags across nodes", .serialized)
struct FollowedTagFederationTests {
    @Test("alice@A follows #lighthouse; dana@B's tagged post reaches alice's home, the untagged one does not")
    func remoteTaggedPostReachesHome() async throws {
        let (a, b) = (try NetworkNode(name: "tags-a"), try NetworkNode(name: "tags-b"))
        defer { [a, b].forEach { $0.remove() } }
        for node in [a, b] { try await node.start() }
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let relay = try await a.node.accounts.create(username: "relay", email: "relay@a.test", password: "relay password")
        let dana = try await b.node.accounts.create(username: "dana", email: "dana@b.test", password: "dana password")
        try await a.node.database.write { db in try db.followedTags.follow(try db.followedTags.hashtag(named: "lighthouse"), by: alice.id) }

        let danaOnA = try await a.node.remoteAccounts.resolve(username: "dana", domain: b.domain)
        try await a.node.interactions.follow(danaOnA, by: relay)
        // A fans dana's posts out to relay only once B's Accept arrived: wait for it, not only for B's count.
        try await eventually("A has relay's follow of dana accepted") {
            try a.read { try Follow.filter(Column("account_id") == relay.id && Column("state") == "accepted").fetchCount($0) } == 1
        }
        let untagged = try await b.node.posts.create(.init(text: "Just the sea"), by: dana)
        let tagged = try await b.node.posts.create(.init(text: "The old #Lighthouse at dusk"), by: dana)
        try await eventually("A stored both posts") {
            try a.read { try Post.filter([untagged.uri, tagged.uri].contains(Column("uri"))).fetchCount($0) } == 2
        }
        let home = try a.read { try HomeTimeline.page(readerId: alice.id, in: $0) }.map(\.uri)
        #expect(home == [tagged.uri], "only the tagged post, once")
        let relayHome = Set(try a.read { try HomeTimeline.page(readerId: relay.id, in: $0) }.map(\.uri))
        #expect(relayHome == [untagged.uri, tagged.uri])
        for node in [a, b] { await node.stop() }
    }
}
