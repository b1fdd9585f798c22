@testable import Core
import Foundation
import GRDB
import Hummingbird
import Logging
import Storage
import Synchronization
import TestSupport
import Testing
@testable import FedNode

/// One node of the test network: a real Hummingbird server on 127.0.0.1 with its own port,
/// database and keys, started through `buildApplication` like `fednode serve`. The database is
/// a SQLite file in its data directory, or a fresh PostgreSQL database of its own when
/// `FEDNODE_TEST_DATABASE_URL` names a server (`make test-postgres`).
final class NetworkNode: @unchecked Sendable {
    // Mutated only by the test's own task (start/stop), never concurrently.
    let name: String
    let port: Int
    let dataDirectory: String
    /// The node's PostgreSQL database, kept across restarts (`nil`: SQLite in `dataDirectory`).
    let databaseURL: String?
    private(set) var node: Node
    private var task: Task<Void, any Error>?
    private let logger: Logger

    var domain: String { "127.0.0.1:\(port)" }

    /// - Parameters:
    ///   - logger: The node's logger (to read what it logs); a quiet one unless given.
    ///   - configure: Changes to the test configuration (mail settings, for example).
    init(name: String, logger: Logger? = nil, configure: (inout NodeConfiguration) -> Void = { _ in }) throws {
        self.name = name
        self.port = try FreePort.find()
        self.dataDirectory = (NSTemporaryDirectory() as NSString).appendingPathComponent("fednode-net-\(name)-\(UUID().uuidString)")
        self.logger = logger ?? Self.logger(name)
        self.databaseURL = PostgresTestDatabase.url == nil ? nil : try PostgresTestDatabase.fresh()
        var configuration = Self.configuration(port: port, dataDirectory: dataDirectory, databaseURL: databaseURL)
        configure(&configuration)
        self.node = try Node(configuration: configuration, logger: self.logger)
    }

    /// Starts serving; `workers: false` accepts activities without processing them (a node
    /// that dies right after answering 202).
    func start(workers: Bool = true) async throws {
        let app = buildApplication(node: node, runWorkers: workers)
        task = Task { try await app.run() }
        try await waitUntilServing()
    }

    /// Stops the server and its workers (as a crash or shutdown would), keeping the data.
    func stop() async {
        task?.cancel()
        _ = await task?.result
        task = nil
    }

    /// Stops, reopens the database from disk, and starts again on the same port.
    func restart(workers: Bool = true) async throws {
        await stop()
        node = try Node(configuration: Self.configuration(port: port, dataDirectory: dataDirectory, databaseURL: databaseURL), logger: logger)
        try await start(workers: workers)
    }

    /// Removes the data directory, after checking that the kept counters (followers, posts,
    /// likes...) agree with a recount of the rows.
    func remove() {
        do {
            let mismatches = try node.database.readBlocking { try $0.statistics.counterMismatches() }
            if !mismatches.isEmpty { Issue.record("\(name): counters differ from a recount: \(mismatches.map(\.description))") }
        } catch {
            Issue.record("\(name): cannot recount the counters: \(error)")
        }
        try? FileManager.default.removeItem(atPath: dataDirectory)
    }

    /// What names this node's database to `fednode` commands besides `--data-dir`.
    var databaseArguments: [String] { databaseURL.map { ["--database", $0] } ?? [] }

    /// Reads from this node's database.
    func read<T: Sendable>(_ body: @Sendable (SQLSession) throws -> T) throws -> T {
        try node.database.readSQL(body)
    }

    private func waitUntilServing() async throws {
        for _ in 0..<200 {
            if let response = try? await node.httpClient.execute(HTTPClientRequest(url: "http://\(domain)/healthz")), response.status == 200 { return }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw NodeError.internal("node \(name) did not start")
    }

    private static func configuration(port: Int, dataDirectory: String, databaseURL: String?) -> NodeConfiguration {
        var configuration = NodeConfiguration(domain: "127.0.0.1:\(port)", testMode: true)
        configuration.port = port
        configuration.dataDirectory = dataDirectory
        configuration.databaseURL = databaseURL
        configuration.passwordCost = 10
        return configuration
    }

    private static func logger(_ name: String) -> Logger {
        var logger = Logger(label: "node-\(name)")
        logger.logLevel = ProcessInfo.processInfo.environment["FEDNODE_TEST_LOG"].flatMap { Logger.Level(rawValue: $0) } ?? .critical
        return logger
    }
}

/// Finds a free loopback port by binding port 0 (nodes need their port, which is part of their
/// domain, before they start, and keep it across restarts).
/// Ports for test servers that must know their port before they listen (a node's domain is
/// `127.0.0.1:PORT`, fixed across restarts).
///
/// They come from below the kernel's ephemeral range (32768 and up on Linux), walking up from a
/// random start: a port asked of the kernel with `bind(0)` and closed again could be handed to
/// an outgoing connection or another `bind(0)` before the node binds it, and with hundreds of
/// connections in flight during a run, that happened. Ports below the range are only ever taken
/// by explicit binds, and this process hands each out once.
enum FreePort {
    private static let next = Mutex(Int.random(in: range))
    private static let range = 20_000..<32_000

    /// A port nothing on 127.0.0.1 listens on now, not handed out before in this process.
    static func find() throws -> Int {
        for _ in 0..<500 {
            let port = next.withLock { port in
                port = port + 1 < range.upperBound ? port + 1 : range.lowerBound
                return port
            }
            if isFree(port) { return port }
        }
        throw NodeError.internal("no free port below the ephemeral range")
    }

    private static func isFree(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}

/// Waits for a condition that depends on other nodes' background work (deliveries, inbox
/// processing). This bounds a wait; it asserts nothing about speed.
func eventually(_ what: String, within seconds: Double = 30, _ condition: () async throws -> Bool) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if (try? await condition()) == true { return }
        try await Task.sleep(for: .milliseconds(50))
    }
    throw NodeError.internal("never happened: \(what)")
}
