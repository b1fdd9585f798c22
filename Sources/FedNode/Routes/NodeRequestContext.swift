import Hummingbird

/// The per-request context of every FedNode route.
public struct NodeRequestContext: RequestContext {
    /// Hummingbird's core storage.
    public var coreContext: CoreRequestContextStorage

    /// Creates the context for one request.
    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
    }

    /// Largest body decoded by `request.decode` (uploads read their body explicitly).
    public var maxUploadSize: Int { 1024 * 1024 }
}
