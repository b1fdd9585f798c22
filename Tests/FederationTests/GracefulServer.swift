import Hummingbird
import Logging
import ServiceLifecycle
import Synchronization

/// A Hummingbird application for a fake remote server, run under a service group so that
/// `stop()` shuts it down gracefully: cancelling a server while it accepts a connection traps
/// in NIO ("Deinited NIOAsyncWriter without calling finish()") and takes the test process down.
final class GracefulServer: Sendable {
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    /// Starts serving `router` on 127.0.0.1:`port`, logging only critical events as `label`.
    init(router: Router<BasicRequestContext>, port: Int, label: String) {
        var logger = Logger(label: label)
        logger.logLevel = .critical
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)), logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        self.group = group
        task = Task { try await group.run() }
    }

    /// Lets requests in progress finish, closes the connections and waits until it stopped.
    func stop() async {
        await group.triggerGracefulShutdown()
        _ = await task.result
    }
}
