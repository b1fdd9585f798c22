import Core
import Foundation
import ArgumentParser
import FedNode
import Hummingbird
import Metrics
import Prometheus

/// `fednode serve`: run the node until SIGINT or SIGTERM, then shut down gracefully.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Start the node.")

    @OptionGroup var options: NodeOptions

    @Option(help: "What this process does: all (HTTP and background work), web (HTTP only) or worker (background work only; its port answers /healthz, /readyz and /metrics). Split roles need --database postgres://… shared by every process of the node (env FEDNODE_ROLE).")
    var role: String?

    func run() async throws {
        AllocatorTuning.apply(environment: ProcessInfo.processInfo.environment)
        var configuration = try options.makeConfiguration()
        let roleName = role ?? ProcessInfo.processInfo.environment["FEDNODE_ROLE"] ?? "all"
        guard let role = NodeRole(rawValue: roleName) else {
            throw ValidationError("--role must be one of \(NodeRole.allCases.map(\.rawValue).joined(separator: ", ")), not \(roleName)")
        }
        guard role == .all || configuration.databaseURL != nil else {
            throw ValidationError("--role \(role.rawValue) needs a database the node's processes share: --database postgres://…")
        }
        configuration.role = role
        let logger = options.makeLogger(level: configuration.logLevel)
        let node: Node, lock: DatabaseLock?
        do {
            // One process per SQLite file. (On PostgreSQL the database server arbitrates.)
            lock = configuration.databaseURL == nil ? try DatabaseLock(databasePath: configuration.databasePath) : nil
            node = try Node(configuration: configuration, logger: logger)
        } catch {
            throw ValidationError(error.message)
        }
        defer { withExtendedLifetime(lock) {} }
        logger.info("starting node", metadata: [
            "domain": "\(node.configuration.domain)", "public_url": "\(node.configuration.publicURL)",
            "listen": "\(configuration.host):\(configuration.port)", "data_dir": "\(configuration.dataDirectory)",
            "database": "\(node.database.path)",
            "test_mode": "\(configuration.testMode)", "role": "\(role.rawValue)",
        ])
        // One node per process here, so the process-wide swift-metrics system can report into
        // the node's registry: whatever a library records through swift-metrics is served too.
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: node.metrics.registry))
        // runService installs the SIGINT/SIGTERM handlers of service lifecycle and drains.
        try await buildApplication(node: node).runService()
    }
}
