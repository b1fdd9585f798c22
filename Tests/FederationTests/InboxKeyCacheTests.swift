@testable import Core
import Foundation
import GRDB
import Signatures
import Storage
import Testing
@testable import FedNode

/// The node keeps verified signing keys in memory; a key must stop verifying as soon as the
/// stored actor says it is no longer the actor's key.
@Suite("Signing keys held in memory", .serialized)
struct InboxKeyCacheTests {
    @Test("once an actor's Update rotates its key, the old key is refused; once its Delete is processed, the key is refused")
    func replacedAndDeletedKeysStopVerifying() async throws {
        let (a, origin) = (try NetworkNode(name: "keys-a"), try HostileOrigin())
        defer { a.remove() }
        try await a.start(workers: false)
        try await origin.start()
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        origin.serve("/users/carol", json: origin.actor("carol"))
        let carol = "\(origin.base)/users/carol"
        let keyId = carol + "#main-key"
        let oldKey = origin.key
        func follow(_ n: Int) -> [String: Any] {
            InboxDomainBlockTests.activity("Follow", id: "\(carol)/follows/\(n)", actor: carol, object: alice.uri)
        }

        #expect(try await origin.deliver(follow(1), to: a, keyId: keyId) == 202, "the first key verifies (and is cached)")
        await InboxWorker(node: a.node).processDue()

        // Carol rotates her key and announces it, signed with the old one, as servers do.
        let newKey = try RSAPrivateKey.generate()
        var rotated = origin.actor("carol")
        rotated["publicKey"] = ["id": keyId, "owner": carol, "publicKeyPem": newKey.publicKey.spkiPEM]
        origin.serve("/users/carol", json: rotated)
        let update = InboxDomainBlockTests.activity("Update", id: "\(carol)#updates/1", actor: carol, object: rotated)
        #expect(try await origin.deliver(update, to: a, keyId: keyId, signingKey: oldKey) == 202)
        await InboxWorker(node: a.node).processDue()
        #expect(try a.read { try Account.filter(Column("uri") == carol).fetchOne($0)?.publicKeyPem } == newKey.publicKey.spkiPEM)

        #expect(try await origin.deliver(follow(2), to: a, keyId: keyId, signingKey: oldKey) == 401, "the replaced key no longer verifies")
        #expect(try await origin.deliver(follow(3), to: a, keyId: keyId, signingKey: newKey) == 202, "the new key does")
        await InboxWorker(node: a.node).processDue()

        // Carol deletes herself; her origin answers 410 from then on.
        let delete = InboxDomainBlockTests.activity("Delete", id: "\(carol)#delete", actor: carol, object: carol)
        #expect(try await origin.deliver(delete, to: a, keyId: keyId, signingKey: newKey) == 202)
        origin.serve("/users/carol", .init(status: 410))
        await InboxWorker(node: a.node).processDue()
        #expect(try a.read { try Account.filter(Column("uri") == carol).fetchCount($0) } == 0, "the account is gone")
        #expect(try await origin.deliver(follow(4), to: a, keyId: keyId, signingKey: newKey) == 401,
                "the deleted actor's key no longer verifies")
        await origin.stop()
        await a.stop()
    }
}
