import Core
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// Connections open at once, shared by every connection of one server.
final class ConnectionCount: Sendable {
    private let open = Atomic<Int>(0)

    /// Counts a new connection until it closes.
    /// - Returns: How many are open with it.
    func opened(_ channel: any Channel) -> Int {
        let count = open.add(1, ordering: .relaxed).newValue
        channel.closeFuture.whenComplete { [self] _ in _ = open.subtract(1, ordering: .relaxed) }
        return count
    }
}

/// A server child channel that sets up `Inner` (HTTP/1 with WebSocket upgrades) and puts a
/// `ConnectionGuard` right after its HTTP decoder, so the guard sees parse errors and request
/// boundaries of every connection, the first request included.
struct GuardedChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value
    let inner: Inner
    let limits: ServerLimits
    let connections = ConnectionCount()

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let overLimit = connections.opened(channel) > limits.maxConnections
        if overLimit { logger.warning("connection limit reached; answering 503", metadata: ["limit": "\(limits.maxConnections)"]) }
        // `inner.setup` configures the pipeline synchronously (on the channel's event loop);
        // its future completes later, when the first request decided about an upgrade.
        let value = inner.setup(channel: channel, logger: logger)
        do {
            let operations = channel.pipeline.syncOperations
            let decoder = try operations.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            let guardHandler = ConnectionGuard(limits: limits, logger: logger, refuse: overLimit)
            try operations.addHandler(guardHandler, position: .after(decoder))
        } catch {
            logger.error("cannot guard a connection; closing it", metadata: ["error": "\(error)"])
            channel.close(promise: nil)
        }
        return value
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
