@testable import Core
import Foundation
import GRDB
import Storage
import Testing
@testable import FedNode

/// One server has many spellings (`evil.example`, `EVIL.example.`, `evil.example.:443`); a block
/// of one covers them all. A stand-in resolver answers the dotted name with the hostile origin's
/// address, as real DNS does for a fully qualified name, so the only thing between the hostile
/// server and the inbox is the block.
@Suite("Host spellings", .serialized)
struct HostSpellingTests {
    private static func follow(_ actor: String, _ target: String, _ number: Int = 1) -> [String: Any] {
        ["@context": "https://www.w3.org/ns/activitystreams", "id": actor + "/follows/\(number)", "type": "Follow", "actor": actor, "object": target]
    }

    /// An actor document for `id`, signed with `origin`'s key.
    private static func actor(_ id: String, key origin: HostileOrigin) -> [String: Any] {
        ["@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"], "id": id, "type": "Person",
         "preferredUsername": String(id.split(separator: "/").last ?? "x"), "inbox": id + "/inbox",
         "publicKey": ["id": id + "#main-key", "owner": id, "publicKeyPem": origin.key.publicKey.spkiPEM]]
    }

    @Test("a block of evil.example refuses a server signing as evil.example. (trailing dot) or EVIL.example.")
    func trailingDotIsTheSameDomain() async throws {
        let evil = try HostileOrigin()
        let a = try NetworkNode(name: "a") { configuration in
            configuration.testResolve = ["evil.example.:\(evil.port):127.0.0.1", "evil.example:\(evil.port):127.0.0.1"]
        }
        defer { a.remove() }
        try await a.start(workers: false)
        try await evil.start()
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")

        // Unblocked, the dotted name reaches the hostile origin: the resolver stands in for DNS.
        let control = "http://evil.example.:\(evil.port)/users/control"
        evil.serve("/users/control", json: Self.actor(control, key: evil))
        #expect(try await evil.deliver(Self.follow(control, alice.uri), to: a, keyId: control + "#main-key") == 202)
        let stored = try a.read { try Account.withURI(control).fetchOne($0) }
        #expect(stored?.domain == "evil.example:\(evil.port)", "the account's domain is stored in its one spelling")

        // Typed as an admin might: stored, and checked, in the one spelling.
        _ = try await a.node.database.write { try $0.domainBlocks.add("Evil.Example.", at: Date()) }
        #expect(try a.read { try String.fetchAll($0, sql: "SELECT domain FROM domain_blocks") } == ["evil.example"])
        for spelling in ["evil.example.", "EVIL.example.", "Evil.Example"] {
            let id = "http://\(spelling):\(evil.port)/users/x"
            evil.serve("/users/x", json: Self.actor(id, key: evil))
            #expect(try await evil.deliver(Self.follow(id, alice.uri), to: a, keyId: id + "#main-key") == 403, "\(spelling)")
        }
        #expect(try await evil.deliver(Self.follow(control, alice.uri, 2), to: a, keyId: control + "#main-key") == 403,
                "the account already known is refused too")
        #expect(try a.read { try InboxItem.fetchCount($0) } == 1, "only the control's first Follow was accepted")
        await evil.stop()
        await a.stop()
    }
}
