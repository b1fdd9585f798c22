import Core
import Hummingbird
import NIOCore

/// The per-request context of every FedNode route.
public struct NodeRequestContext: RequestContext, RemoteAddressRequestContext {
    /// Hummingbird's core storage.
    public var coreContext: CoreRequestContextStorage
    /// The connected peer (the TLS proxy in production; `nil` in in-process tests).
    public let remoteAddress: SocketAddress?

    /// Creates the context for one request.
    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }

    /// Largest body decoded by `request.decode` (uploads read their body explicitly).
    public var maxUploadSize: Int { 1024 * 1024 }
}
