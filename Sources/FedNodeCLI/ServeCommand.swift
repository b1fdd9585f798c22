import ArgumentParser
import FedNode
import Hummingbird
import Metrics
import Prometheus

/// `fednode serve`: run the node until SIGINT or SIGTERM, then shut down gracefully.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Start the node.")

    @OptionGroup var options: NodeOptions

    func run() async throws {
        let configuration = try options.makeConfiguration()
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
            "test_mode": "\(configuration.testMode)",
        ])
        // One node per process here, so the process-wide swift-metrics system can report into
        // the node's registry: whatever a library records through swift-metrics is served too.
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: node.metrics.registry))
        // runService installs the SIGINT/SIGTERM handlers of service lifecycle and drains.
        try await buildApplication(node: node).runService()
    }
}
