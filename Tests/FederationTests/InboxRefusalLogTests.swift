@testable import Core
import Foundation
import Logging
import Signatures
import Storage
import Synchronization
import Testing
@testable import FedNode

/// Every refused inbox request leaves a notice that says why and who asked.
@Suite("Inbox refusal logs", .serialized)
struct InboxRefusalLogTests {
    /// Keeps every record at notice level or above.
    final class Records: Sendable {
        let entries = Mutex<[(message: String, metadata: [String: String])]>([])
        var all: [(message: String, metadata: [String: String])] { entries.withLock { $0 } }
    }

    struct CapturingHandler: LogHandler {
        let records: Records
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .notice
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String,
                 function: String, line: UInt) {
            let merged = self.metadata.merging(metadata ?? [:]) { $1 }.mapValues { "\($0)" }
            records.entries.withLock { $0.append((message.description, merged)) }
        }
    }

    @Test("a forged signature and a foreign id are logged with the reason, the keyId and the actor")
    func refusalsAreLogged() async throws {
        let records = Records()
        let a = try NetworkNode(name: "a", logger: Logger(label: "node-a") { _ in CapturingHandler(records: records) })
        let evil = try HostileOrigin()
        defer { a.remove() }
        try await a.start(workers: false)
        try await evil.start()
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        evil.serve("/users/evil", json: evil.actor("evil"))
        let evilId = "\(evil.base)/users/evil"
        let follow: [String: Any] = ["id": evilId + "/follows/1", "type": "Follow", "actor": evilId, "object": alice.uri]
        #expect(try await evil.deliver(follow, to: a, keyId: evilId + "#main-key", signingKey: try RSAPrivateKey.generate()) == 401)
        var foreign = follow
        foreign["id"] = "https://elsewhere.example/follows/1"
        #expect(try await evil.deliver(foreign, to: a, keyId: evilId + "#main-key") == 403)

        let refusals = records.all.filter { $0.message == "inbox request refused" }
        #expect(refusals.map { $0.metadata["status"] } == ["401", "403"])
        #expect(refusals.allSatisfy { $0.metadata["keyId"] == evilId + "#main-key" && $0.metadata["actor"] == evilId })
        #expect(refusals.first?.metadata["reason"]?.contains("Signature does not verify") == true)
        #expect(refusals.last?.metadata["reason"]?.contains("not on the actor's host") == true)
        await evil.stop()
        await a.stop()
    }
}
