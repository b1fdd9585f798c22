/// Why `CurlHTTPClient.execute(_:)` produced no response. Every libcurl failure maps to one case.
public enum HTTPClientError: Error, Sendable, Equatable {
    /// The URL is malformed, or its scheme is not `http` or `https` (the URL is attached).
    case invalidURL(String)
    /// The host resolved to an address that is not public (loopback, private, link-local, ...) and
    /// the client does not allow private addresses; the refused address is attached. Also raised
    /// when a redirect leads to such an address.
    case blockedAddress(String)
    /// The peer address already has as many of this client's requests in flight as one address
    /// may (`Configuration.maxInFlightPerAddress`, fewer once it timed out): nothing was sent, and
    /// the request may be tried again later. The address is attached.
    case addressBusy(String)
    /// The host could not be resolved, refused the connection, or the TLS handshake failed
    /// (libcurl's message is attached).
    case connectFailed(String)
    /// The connect timeout or the total timeout passed before the response was complete.
    case timedOut
    /// The response body (after decoding) exceeded `Configuration.maxResponseBytes`.
    case responseTooLarge
    /// The server redirected more than `Configuration.maxRedirects` times.
    case tooManyRedirects
    /// The calling task was cancelled, or the client was shut down, before the response was complete.
    case cancelled
    /// Any other failure: a broken connection, a malformed response, an invalid header or method in
    /// the request, or an internal libcurl error (a description is attached).
    case transport(String)
}
