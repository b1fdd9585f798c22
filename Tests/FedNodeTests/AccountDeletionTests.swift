import Activity
@testable import Core
import Foundation
import GRDB
import Signatures
import Storage
import Testing
@testable import FedNode

/// Deleting a local account tells every server that knows it, signed with the account's own
/// key, which outlives the account row only as long as those deliveries are queued.
@Suite("Deleting a local account")
struct AccountDeletionTests {
    @Test("one signed Delete of the actor per server that knows it, instead of what was not sent yet; the key stays on the tombstone until the deliveries are done")
    func deleteQueuesActorDelete() async throws {
        let test = try TestNode.make(); defer { test.remove() }
        let alice = try await test.node.accounts.create(username: "alice", email: "alice@example.com", password: "correct horse")
        let dan = try await test.node.accounts.create(username: "dan", email: "dan@example.com", password: "correct horse")
        // Two accounts on one server (one shared inbox) and one elsewhere; dan is local.
        let erin = try await StatusFixtures.remoteAccount("erin", domain: "one.example", in: test.node)
        let finn = try await StatusFixtures.remoteAccount("finn", domain: "one.example", in: test.node)
        let gail = try await StatusFixtures.remoteAccount("gail", domain: "two.example", in: test.node)
        _ = try await StatusFixtures.remoteAccount("hal", domain: "three.example", in: test.node)
        try await test.node.database.writeSQL { db in
            for (follower, target) in [(erin.id, alice.id), (alice.id, finn.id), (gail.id, alice.id), (dan.id, alice.id)] {
                try Follow(accountId: follower, targetAccountId: target, uri: nil, state: .accepted).insert(db)
            }
        }
        _ = try await test.node.posts.create(.init(text: "Goodbye, lake"), by: alice)
        #expect(try await test.node.database.readSQL { try Delivery.fetchCount($0) } == 2, "the post's Create, not sent yet")

        try test.node.accounts.delete(username: "alice")
        let queued = try await test.node.database.readSQL { try Delivery.order(Column("inbox_url")).fetchAll($0) }
        #expect(queued.map(\.inboxUrl) == ["https://one.example/inbox", "https://two.example/inbox"])
        for delivery in queued {
            let activity = try ASObject.decode(from: delivery.payload)
            #expect(activity.type == "Delete" && activity.actor?.id == alice.uri && activity.object?.id == alice.uri)
            #expect(activity.to == [ActivityStreams.publicAddress])
            #expect(delivery.accountId == alice.id)
        }
        #expect(try await test.node.database.read { try $0.accounts.find(id: alice.id) } == nil)
        #expect(try await test.node.database.read { try $0.posts.count(by: alice.id) } == 0)

        // The deliveries are signed with alice's own key, kept on her tombstone.
        let signers = try await DeliverySigners(database: test.node.database, logger: TestNode.logger).signers(for: [alice.id])
        #expect(signers[alice.id]?.keyId == alice.publicKeyId)
        #expect(try await test.node.database.write { try $0.accounts.forgetDepartedKeys() } == 0, "deliveries still queued")
        try await test.node.database.writeSQL { db in _ = try Delivery.deleteAll(db) }
        #expect(try await test.node.database.write { try $0.accounts.forgetDepartedKeys() } == 1)
        let tombstone = try #require(try await test.node.database.read { try $0.accounts.tombstone(uri: alice.uri) })
        #expect(tombstone.privateKeyPem == nil && tombstone.keyId == nil)
        await #expect(throws: NodeError.validation("Username has already been taken")) {
            _ = try await test.node.accounts.create(username: "alice", email: "alice2@example.com", password: "correct horse")
        }
    }
}
