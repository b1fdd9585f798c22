@testable import Core
import Foundation
import GRDB
import Signatures
import Storage
import Testing
@testable import FedNode

@Suite("Local accounts")
struct AccountServiceTests {
    @Test("an account gets its own key pair and a salted password hash")
    func create() async throws {
        let test = try TestNode.make()
        defer { test.remove() }
        let alice = try await test.node.accounts.create(username: "alice", email: "alice@example.com", password: "correct horse")
        let bob = try await test.node.accounts.create(username: "bob", email: "bob@example.com", password: "correct horse")
        #expect(alice.uri == "\(test.node.urls.base)/users/alice")
        #expect(alice.publicKeyPem != bob.publicKeyPem)
        let key = try RSAPrivateKey(pem: try #require(alice.privateKeyPem))
        let message = Array("hello".utf8)
        #expect(try RSAPublicKey(pem: try #require(alice.publicKeyPem)).verify(signature: try key.sign(message), for: message))
        let hashes = try await test.node.database.readSQL { try Credential.fetchAll($0).map(\.passwordHash) }
        #expect(hashes.count == 2)
        #expect(hashes[0] != hashes[1], "same password, different salts")
        #expect(hashes.allSatisfy { !$0.contains("correct horse") })
    }

    @Test("sign-in needs the right password")
    func authenticate() async throws {
        let test = try TestNode.make()
        defer { test.remove() }
        _ = try await test.node.accounts.create(username: "alice", email: "alice@example.com", password: "correct horse")
        #expect(try test.node.accounts.authenticate(email: "Alice@Example.com", password: "correct horse")?.username == "alice")
        #expect(try test.node.accounts.authenticate(email: "alice@example.com", password: "wrong horse") == nil)
        #expect(try test.node.accounts.authenticate(email: "nobody@example.com", password: "correct horse") == nil)
    }

    @Test("invalid or taken usernames, emails and passwords are refused with a reason",
          arguments: [
            ("Alice", "new@example.com", "correct horse", "taken"),
            ("new", "ALICE@example.com", "correct horse", "taken"),
            ("admin", "a@example.com", "correct horse", "reserved"),
            ("Inbox", "a@example.com", "correct horse", "reserved"),
            ("bad-name", "a@example.com", "correct horse", "letters"),
            ("émile", "a@example.com", "correct horse", "letters"),
            ("", "a@example.com", "correct horse", "blank"),
            (String(repeating: "a", count: 31), "a@example.com", "correct horse", "too long"),
            ("new", "not-an-email", "correct horse", "Email"),
            ("new", "a@b", "correct horse", "Email"),
            ("new", "a b@example.com", "correct horse", "Email"),
            ("new", "a@example.com", "short", "too short"),
          ])
    func refused(username: String, email: String, password: String, reason: String) async throws {
        let test = try TestNode.make()
        defer { test.remove() }
        _ = try await test.node.accounts.create(username: "alice", email: "alice@example.com", password: "correct horse")
        await #expect {
            _ = try await test.node.accounts.create(username: username, email: email, password: password)
        } throws: { error in
            guard case NodeError.validation(let message) = error else { return false }
            return message.localizedCaseInsensitiveContains(reason)
        }
        #expect(try test.node.accounts.listLocal().count == 1, "nothing half-written")
    }

    @Test("accounts survive a restart; a deleted name stays taken")
    func restartAndDelete() async throws {
        let test = try TestNode.make()
        defer { test.remove() }
        _ = try await test.node.accounts.create(username: "alice", email: "alice@example.com", password: "correct horse")
        let reopened = try Node(configuration: test.node.configuration, logger: TestNode.logger)
        #expect(try await reopened.accounts.local("alice").username == "alice")
        #expect(try reopened.accounts.authenticate(email: "alice@example.com", password: "correct horse") != nil)
        try reopened.accounts.delete(username: "alice")
        await #expect(throws: NodeError.notFound("Record not found")) { try await reopened.accounts.local("alice") }
        await #expect(throws: NodeError.validation("Username has already been taken")) {
            _ = try await reopened.accounts.create(username: "alice", email: "alice2@example.com", password: "correct horse")
        }
    }

    @Test("a data directory (or its PostgreSQL database) keeps its domain")
    func domainPinned() throws {
        let test = try TestNode.make(domain: "one.test")
        defer { test.remove() }
        var other = TestNode.configuration(domain: "two.test", dataDirectory: test.dataDirectory)
        other.databaseURL = test.node.configuration.databaseURL
        #expect(throws: NodeError.self) { try Node(configuration: other, logger: TestNode.logger) }
        var adopting = other
        adopting.adoptsStoredIdentity = true
        #expect(try Node(configuration: adopting, logger: TestNode.logger).urls.domain == "one.test")
    }
}
