@testable import Core
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Storage
import Testing
import TestSupport
@testable import FedNode

/// A node over a fresh temporary data directory, for in-process route and service tests.
struct TestNode {
    let node: Node
    let dataDirectory: String

    /// Opens a node for `domain` (test mode, cheap password hashing) in a new directory.
    /// On PostgreSQL (`make test-postgres`), the node's data is in a fresh database of its own.
    static func make(domain: String = "social.test") throws -> TestNode {
        let dir = (NSTemporaryDirectory() as NSString).appendingPathComponent("fednode-test-\(UUID().uuidString)")
        var configuration = configuration(domain: domain, dataDirectory: dir)
        if PostgresTestDatabase.url != nil { configuration.databaseURL = try PostgresTestDatabase.fresh() }
        return TestNode(node: try Node(configuration: configuration, logger: logger), dataDirectory: dir)
    }

    /// A test-mode configuration storing under `dataDirectory`.
    static func configuration(domain: String, dataDirectory: String) -> NodeConfiguration {
        var configuration = NodeConfiguration(domain: domain, testMode: true)
        configuration.dataDirectory = dataDirectory
        configuration.passwordCost = 10
        configuration.port = 0
        // HummingbirdTesting's live client keeps one connection and does not reconnect when the
        // server closes it between requests; on a loaded two-core CI machine a test's pause between
        // two requests (an image being processed) can pass the production keep-alive bound.
        // ServerHardeningTests set their own short bounds.
        configuration.serverLimits.requestHeadSeconds = 600
        return configuration
    }

    static let logger: Logger = {
        var logger = Logger(label: "fednode-test")
        logger.logLevel = .warning
        return logger
    }()

    /// Runs `body` against the node's application through Hummingbird's in-process router.
    func withClient<T: Sendable>(_ body: @Sendable (any TestClientProtocol) async throws -> T) async throws -> T {
        try await buildApplication(node: node).test(.router, body)
    }

    /// Removes the data directory, after checking that the kept counters (followers, posts,
    /// likes...) agree with a recount of the rows, so every test that changes them checks them.
    func remove() {
        Self.expectExactCounters(node)
        try? FileManager.default.removeItem(atPath: dataDirectory)
    }

    /// Records an issue when a counter of `node` differs from a recount of the rows, or when
    /// the recount cannot be read (a check that cannot run must not pass).
    static func expectExactCounters(_ node: Node) {
        do {
            let mismatches = try node.database.readBlocking { try $0.statistics.counterMismatches() }
            if !mismatches.isEmpty { Issue.record("counters differ from a recount: \(mismatches.map(\.description))") }
        } catch {
            Issue.record("cannot recount the counters: \(error)")
        }
    }
}

extension TestResponse {
    /// The body parsed as a JSON object.
    var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any]
    }
    /// The body as text.
    var text: String { String(buffer: body) }
}
