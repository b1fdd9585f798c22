/// The outgoing HTTP client for federation, over libcurl's multi interface.
///
/// One client runs one worker thread that drives every request in flight at once over one libcurl
/// multi handle, so connections are kept and reused between requests, and HTTP/2 streams are
/// multiplexed over one connection when a peer offers HTTP/2 over TLS. Every connection is checked
/// against `AddressPolicy` after name resolution (redirects included), so private addresses are
/// refused unless `Configuration.allowPrivateAddresses` is set.
///
/// Create one client for the node and share it; call `shutdown()` when the node stops (the client
/// also shuts down when it is released).
public final class CurlHTTPClient: Sendable {
    /// The settings this client was created with.
    public let configuration: Configuration
    /// The requests in flight per peer address, and their bound.
    public let addressLoad: AddressLoad
    private let worker: CurlMultiWorker

    /// Creates a client and starts its worker thread.
    /// - Parameter configuration: Timeouts, limits, the user agent and the address policy.
    public init(configuration: Configuration) {
        self.configuration = configuration
        let addressLoad = AddressLoad(limit: configuration.maxInFlightPerAddress)
        self.addressLoad = addressLoad
        worker = CurlMultiWorker(configuration: configuration, addressLoad: addressLoad)
    }

    deinit {
        worker.shutdown()
    }

    /// Sends a request and waits for its final response, following up to
    /// `Configuration.maxRedirects` redirects. Cancelling the calling task aborts the transfer.
    /// - Parameter request: The request to send.
    /// - Returns: The final response, whatever its status code.
    /// - Throws: `HTTPClientError` only; see its cases.
    public func execute(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientResponse {
        let wait = RemoteWait.current
        wait?.begin()
        defer { wait?.end() }
        return try await worker.execute(request).get()
    }

    /// Stops the worker thread after failing every request in flight or queued with `.cancelled`;
    /// later calls to `execute(_:)` fail with `.cancelled` too. Returns without waiting for the
    /// thread to finish. Calling it again does nothing.
    public func shutdown() {
        worker.shutdown()
    }
}
