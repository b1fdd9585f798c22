@testable import Core
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTesting
import Logging
import Synchronization
import Testing
@testable import FedNode

/// A log handler that keeps every record it is given, so a test can read what an admin would.
struct CapturingLogHandler: LogHandler {
    /// One captured log call.
    struct Record: Sendable {
        let level: Logger.Level
        let message: String
        let metadata: [String: String]
    }

    /// Shared storage the test reads after the node has answered.
    final class Store: Sendable {
        private let records = Mutex<[Record]>([])
        func append(_ record: Record) { records.withLock { $0.append(record) } }
        var all: [Record] { records.withLock { $0 } }
        /// The request lines logged so far.
        var requests: [Record] { all.filter { $0.message == "request" } }
    }

    let store: Store
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        store.append(Record(level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" }))
    }
}

/// Every request leaves one line an admin can read: method, path without secrets, status and
/// duration, at a level that keeps successes out of the default `info` log.
@Suite("Request logging")
struct RequestLogTests {
    /// A node whose root logger writes into `store`.
    static func node(logging store: CapturingLogHandler.Store) throws -> TestNode {
        let dir = (NSTemporaryDirectory() as NSString).appendingPathComponent("fednode-test-\(UUID().uuidString)")
        let logger = Logger(label: "fednode-log-test") { _ in CapturingLogHandler(store: store) }
        let configuration = TestNode.configuration(domain: "social.test", dataDirectory: dir)
        return TestNode(node: try Node(configuration: configuration, logger: logger), dataDirectory: dir)
    }

    @Test("a success logs method, path, status and duration at debug")
    func successAtDebug() async throws {
        let store = CapturingLogHandler.Store()
        let test = try Self.node(logging: store)
        defer { test.remove() }
        try await test.withClient { client in
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
        }
        let line = try #require(store.requests.last)
        #expect(line.level == .debug)
        #expect(line.metadata["method"] == "GET")
        #expect(line.metadata["path"] == "/healthz")
        #expect(line.metadata["status"] == "200")
        let duration = try #require(line.metadata["durationMs"].flatMap(Double.init))
        #expect(duration >= 0)
    }

    @Test("a WebFinger miss logs at info with the status the client saw and its User-Agent")
    func clientErrorAtInfo() async throws {
        let store = CapturingLogHandler.Store()
        let test = try Self.node(logging: store)
        defer { test.remove() }
        try await test.withClient { client in
            try await client.execute(uri: "/.well-known/webfinger?resource=acct:nobody@social.test", method: .get,
                                     headers: [.userAgent: "Mastodon/4.3.0 (http.rb/5.2.0; +https://remote.example/)"]) {
                #expect($0.status == .notFound)
            }
        }
        let line = try #require(store.requests.last)
        #expect(line.level == .info)
        #expect(line.metadata["status"] == "404")
        #expect(line.metadata["path"] == "/.well-known/webfinger?resource=acct:nobody@social.test")
        #expect(line.metadata["userAgent"]?.hasPrefix("Mastodon/4.3.0") == true)
    }

    @Test("an error thrown by a handler is logged with the status the error middleware answered")
    func unauthorizedAPI() async throws {
        let store = CapturingLogHandler.Store()
        let test = try Self.node(logging: store)
        defer { test.remove() }
        try await test.withClient { client in
            try await client.execute(uri: "/api/v1/accounts/verify_credentials?access_token=s3cr3t-token&x=1", method: .get) {
                #expect($0.status == .unauthorized)
            }
        }
        let line = try #require(store.requests.last)
        #expect(line.metadata["status"] == "401")
        #expect(line.level == .info)
        // The token never reaches the log, in this line or any other.
        #expect(line.metadata["path"] == "/api/v1/accounts/verify_credentials?access_token=[redacted]&x=1")
        #expect(!store.all.contains { record in record.metadata.values.contains { $0.contains("s3cr3t") } || record.message.contains("s3cr3t") })
    }

    @Test("secret query parameters are redacted whatever their case or array form")
    func redaction() {
        let path = RequestLogMiddleware<NodeRequestContext>.loggablePath(
            URI("/oauth/token?grant_type=authorization_code&Code=abc&client_secret=def&token%5B%5D=ghi&scope=read"))
        #expect(path == "/oauth/token?grant_type=authorization_code&Code=[redacted]&client_secret=[redacted]&token%5B%5D=[redacted]&scope=read")
        #expect(RequestLogMiddleware<NodeRequestContext>.loggablePath(URI("/users/alice")) == "/users/alice")
    }

    @Test("levels: 2xx and 3xx debug, 4xx info, 5xx warning")
    func levels() {
        typealias Middleware = RequestLogMiddleware<NodeRequestContext>
        #expect(Middleware.level(forStatus: 202) == .debug)
        #expect(Middleware.level(forStatus: 302) == .debug)
        #expect(Middleware.level(forStatus: 401) == .info)
        #expect(Middleware.level(forStatus: 503) == .warning)
    }
}
