@testable import Core
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// The admin domain allow API and allow-list federation as the node's one policy, and the
/// public list's obfuscation, over real HTTP.
@Suite("Domain allows and the federation policy")
struct DomainPolicyTests {
    @Test("domain allows: admins list, show, create and delete them; moderators and users cannot")
    func allowsAPI() async throws {
        let t = try TestNode.make { $0.federationMode = .allowlist }
        defer { t.remove() }
        let (ada, adaToken) = try await t.user("ada", scopes: "read admin:read admin:write")
        try t.node.accounts.setRole("admin", of: ada.username)
        let (moira, moiraToken) = try await t.user("moira", scopes: "read admin:read admin:write")
        try t.node.accounts.setRole("moderator", of: moira.username)
        try await t.withLiveClient { client in
            let created = try await client.api(.post, "/api/v1/admin/domain_allows", token: adaToken, json: ["domain": "Friends.Example"])
            #expect(created.status == .ok && created.json?["domain"] as? String == "friends.example" && created.json?["created_at"] is String)
            let id = try #require(created.json?["id"] as? String)
            let again = try await client.api(.post, "/api/v1/admin/domain_allows", token: adaToken, json: ["domain": "friends.example"])
            #expect(again.json?["id"] as? String == id, "allowing twice answers the existing allow")
            #expect(try await client.api(.post, "/api/v1/admin/domain_allows", token: adaToken, json: ["domain": "not a domain"]).status == .unprocessableContent)
            #expect(try await client.api(.post, "/api/v1/admin/domain_allows", token: adaToken, json: ["domain": "social.test"]).status == .unprocessableContent)
            #expect(try await client.api(.get, "/api/v1/admin/domain_allows", token: moiraToken).status == .forbidden, "admins only")
            #expect(try await client.api(.get, "/api/v1/admin/domain_allows", token: adaToken).jsonArray?.count == 1)
            #expect(try await client.api(.get, "/api/v1/admin/domain_allows/\(id)", token: adaToken).json?["domain"] as? String == "friends.example")

            let verdicts = try await t.node.database.read { db in
                try ["friends.example", "cdn.friends.example:8443", "other.example"].map { try db.domainAllows.federates(with: $0) }
            }
            #expect(verdicts == [true, true, false], "allowed domains and their subdomains only")
            #expect(try await client.api(.delete, "/api/v1/admin/domain_allows/\(id)", token: adaToken).status == .ok)
            #expect(try await client.api(.get, "/api/v1/admin/domain_allows/\(id)", token: adaToken).status == .notFound)
            #expect(try await t.node.database.read { db in try db.domainAllows.federates(with: "friends.example") } == false)
        }
    }

    @Test("allow-list mode: deliveries are queued only to allowed domains, and lifting an allow drops its queued ones")
    func deliveriesFollowThePolicy() async throws {
        let t = try TestNode.make { $0.federationMode = .allowlist }
        defer { t.remove() }
        let (alice, _) = try await t.user("alice")
        let allow = try await t.node.database.write { db in
            let allow = try db.domainAllows.add("friends.example", at: Date())
            _ = try db.deliveries.enqueue(activityUri: "http://social.test/a/1", payload: Data("{}".utf8), accountId: alice.id,
                                      inboxes: ["https://friends.example/inbox", "https://strangers.example/inbox"])
            return allow
        }
        let queuedDomains = { try await t.node.database.readSQL { try String.fetchAll($0, sql: "SELECT domain FROM delivery_queue ORDER BY domain") } }
        #expect(try await queuedDomains() == ["friends.example"])
        #expect(try await t.node.database.write { db in try db.domainAllows.remove(allow) })
        #expect(try await queuedDomains() == [], "the queued delivery to a domain no longer allowed is dropped")
    }

    @Test("block-list mode ignores the allow list; an obfuscated block shows starred with the real domain's digest")
    func blockListAndObfuscation() async throws {
        let t = try TestNode.make()
        defer { t.remove() }
        let (mode, federates) = try await t.node.database.write { db in
            (try db.domainAllows.mode(), try db.domainAllows.federates(with: "anyone.example"))
        }
        #expect(mode == .blocklist && federates)
        let (ada, adaToken) = try await t.user("ada", scopes: "read admin:read admin:write")
        try t.node.accounts.setRole("admin", of: ada.username)
        try await t.withLiveClient { client in
            let made = try await client.api(.post, "/api/v1/admin/domain_blocks", token: adaToken,
                                            json: ["domain": "spam.example", "severity": "silence", "obfuscate": true])
            #expect(made.status == .ok)
            let listed = try #require(try await client.api(.get, "/api/v1/instance/domain_blocks").jsonArray?.first)
            #expect(listed["domain"] as? String == "spam.****ple")
            #expect(listed["digest"] as? String == SHA256.hexDigest(Data("spam.example".utf8)))
        }
    }
}
