@testable import Core
import Foundation
import GRDB
import Storage
import Testing
@testable import FedNode

/// Allow-list federation and `reject_media` across real nodes.
@Suite("Allow-list federation and rejected media", .serialized)
struct DomainPolicyFederationTests {
    static func adminToken(_ node: NetworkNode) async throws -> String {
        let ada = try await node.node.accounts.create(username: "ada", email: "ada@\(node.name).test", password: "ada password")
        try node.node.accounts.setRole("admin", of: "ada")
        return try await ModerationTests.token(node, ada, scopes: "read write admin:read admin:write")
    }

    @Test("A in allow-list mode federates with allowed B only: C's follow is refused at A's inbox and A cannot fetch C, until C is allowed")
    func allowList() async throws {
        let a = try NetworkNode(name: "allow-a") { $0.federationMode = .allowlist }
        let (b, c) = (try NetworkNode(name: "allow-b"), try NetworkNode(name: "allow-c"))
        defer { [a, b, c].forEach { $0.remove() } }
        for node in [a, b, c] { try await node.start() }
        let token = try await Self.adminToken(a)
        let allowed = try await ModerationTests.call(a, "POST", "/api/v1/admin/domain_allows", token: token, form: [("domain", b.domain)])
        #expect(allowed.status == 200)
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let bob = try await b.node.accounts.create(username: "bob", email: "bob@b.test", password: "bob password")
        let carol = try await c.node.accounts.create(username: "carol", email: "carol@c.test", password: "carol password")

        _ = try await a.node.remoteAccounts.resolve(username: "bob", domain: b.domain)
        await #expect(throws: NodeError.self, "A does not fetch from C") {
            try await a.node.remoteAccounts.resolve(username: "carol", domain: c.domain)
        }
        try await c.node.interactions.follow(try await c.node.remoteAccounts.resolve(username: "alice", domain: a.domain), by: carol)
        try await b.node.interactions.follow(try await b.node.remoteAccounts.resolve(username: "alice", domain: a.domain), by: bob)
        c.node.deliverySignal.notify()
        try await eventually("C gave up delivering its Follow to A, B's Follow reached A") {
            try c.read { try Delivery.fetchCount($0) } == 0 && a.read { try Follow.filter(Column("target_account_id") == alice.id).fetchCount($0) } == 1
        }
        let followers = try a.read { db in
            try Account.fetchAll(db, sql: "SELECT a.* FROM accounts a JOIN follows f ON f.account_id = a.id WHERE f.target_account_id = ?",
                                 arguments: [alice.id]).map(\.acct)
        }
        #expect(followers == ["bob@\(b.domain)"], "C's Follow was refused")

        _ = try await a.node.posts.create(.init(text: "for allowed servers only"), by: alice)
        #expect(try a.read { try Delivery.filter(Column("domain") == c.domain).fetchCount($0) } == 0)

        #expect(try await ModerationTests.call(a, "POST", "/api/v1/admin/domain_allows", token: token, form: [("domain", c.domain)]).status == 200)
        let carolOnA = try await a.node.remoteAccounts.resolve(username: "carol", domain: c.domain)
        #expect(carolOnA.uri == carol.uri, "once allowed, C is federated with")
        for node in [a, b, c] { await node.stop() }
    }

    @Test("a domain block with reject_media: A stops serving and fetching B's media, and serves it again when lifted")
    func rejectMedia() async throws {
        let (a, b) = (try NetworkNode(name: "media-a"), try NetworkNode(name: "media-b"))
        defer { [a, b].forEach { $0.remove() } }
        for node in [a, b] { try await node.start() }
        let token = try await Self.adminToken(a)
        let bob = try await b.node.accounts.create(username: "bob", email: "bob@b.test", password: "bob password")
        var changes = ProfileChanges()
        changes.avatar = try Data(contentsOf: PythonInterop.root.appendingPathComponent("interop/fixtures/pier.jpg"))
        _ = try await b.node.profiles.update(bob, with: changes)
        let bobOnA = try await a.node.remoteAccounts.resolve(username: "bob", domain: b.domain)
        let avatarPath = "/media/remote/avatar/\(bobOnA.id)"
        #expect(try await ModerationTests.call(a, "GET", avatarPath, token: nil).status == 200)

        let block = try await ModerationTests.call(a, "POST", "/api/v1/admin/domain_blocks", token: token, form: [
            ("domain", b.domain), ("severity", "noop"), ("reject_media", "true"),
        ])
        #expect(block.status == 200 && (block.json as? [String: Any])?["reject_media"] as? Bool == true)
        let refused = try await ModerationTests.call(a, "GET", avatarPath, token: nil)
        #expect(refused.status == 403, "not served, not even from the cache")
        #expect((refused.json as? [String: Any])?["error"] as? String == "This server does not store media from \(b.domain)")

        let id = try #require((block.json as? [String: Any])?["id"] as? String)
        #expect(try await ModerationTests.call(a, "PUT", "/api/v1/admin/domain_blocks/\(id)", token: token, form: [("reject_media", "false")]).status == 200)
        #expect(try await ModerationTests.call(a, "GET", avatarPath, token: nil).status == 200)
        for node in [a, b] { await node.stop() }
    }
}
