@testable import Core
import Foundation
import GRDB
import Storage
import Testing
@testable import FedNode

/// `fednode user delete` tells the fediverse: the other node removes the account and all it
/// posted, and the actor URL answers 410 Gone.
@Suite("Account deletion across nodes", .serialized)
struct AccountDeletionFederationTests {
    @Test("alice@A is deleted: B, where bob follows her and she follows carol, removes her and her posts")
    func deletedAccountDisappears() async throws {
        let (a, b) = (try NetworkNode(name: "delete-a"), try NetworkNode(name: "delete-b"))
        defer { [a, b].forEach { $0.remove() } }
        for node in [a, b] { try await node.start() }
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let bob = try await b.node.accounts.create(username: "bob", email: "bob@b.test", password: "bob password")
        _ = try await b.node.accounts.create(username: "carol", email: "carol@b.test", password: "carol password")
        try await b.node.interactions.follow(try await b.node.remoteAccounts.resolve(username: "alice", domain: a.domain), by: bob)
        try await a.node.interactions.follow(try await a.node.remoteAccounts.resolve(username: "carol", domain: b.domain), by: alice)
        try await eventually("bob follows alice and alice follows carol") {
            try a.read { try Account.followersCount(of: alice.id, in: $0) } == 1
                && b.read { try Follow.filter(Column("state") == "accepted").fetchCount($0) } == 2
        }
        let post = try await a.node.posts.create(.init(text: "Last light on the pier"), by: alice)
        try await eventually("B has alice's post") { try b.read { try Post.filter(Column("uri") == post.uri).fetchCount($0) } == 1 }

        try a.node.accounts.delete(username: "alice")
        a.node.deliverySignal.notify()
        try await eventually("B removes alice, her post and the follows") {
            try b.read { db in
                try Account.filter(Column("uri") == alice.uri).fetchCount(db) == 0 && Post.filter(Column("uri") == post.uri).fetchCount(db) == 0
                    && Follow.fetchCount(db) == 0
            }
        }
        #expect(try b.read { try HomeTimeline.page(readerId: bob.id, in: $0) }.isEmpty)
        let actor = try await b.node.httpClient.execute(HTTPClientRequest(url: alice.uri, headers: [("Accept", "application/activity+json")]))
        #expect(actor.status == 410)
        try await eventually("A's delivery of the Delete is done") { try a.read { try Delivery.fetchCount($0) } == 0 }
        #expect(try await a.node.database.write { try $0.accounts.forgetDepartedKeys() } == 1)
        for node in [a, b] { await node.stop() }
    }
}
