/// One outgoing HTTP request for `CurlHTTPClient`.
///
/// The client adds `User-Agent`, `Accept-Encoding` and `Host` itself; a header given here with
/// the same name replaces the client's. Header names and values must not contain CR or LF.
public struct HTTPClientRequest: Sendable {
    /// The HTTP method, such as `"GET"` or `"POST"`.
    public var method: String
    /// The absolute `http` or `https` URL to request.
    public var url: String
    /// Request headers in the order they are sent.
    public var headers: [(name: String, value: String)]
    /// The request body, or `nil` for none.
    public var body: [UInt8]?
    /// Whether the status line and headers are the whole answer wanted (deliveries): once a
    /// final response's headers arrived, at most `statusOnlyBodyBytes` of body are kept and
    /// the transfer ends after `statusOnlyGrace` even if the server keeps the connection open
    /// without sending the rest. The response is then the status, the headers and what body
    /// came (for logs).
    public var statusIsEnough = false
    /// Body bytes kept when `statusIsEnough`.
    public static let statusOnlyBodyBytes = 4096
    /// How long a body is awaited after the headers when `statusIsEnough`.
    public static let statusOnlyGrace: Duration = .milliseconds(500)
    /// The largest response body accepted for this request, or `nil` for the client's
    /// `Configuration.maxResponseBytes`. Documents fetched before a signature is verified use
    /// a smaller cap than the client's default, so a hostile origin cannot make us hold megabytes.
    public var maxResponseBytes: Int?
    /// How long this whole request may take (redirects included), or `nil` for the client's
    /// `Configuration.totalTimeout`. The connect timeout is shortened to it when longer.
    public var timeout: Duration?

    /// Creates a request.
    /// - Parameters:
    ///   - method: The HTTP method; `"GET"` unless given.
    ///   - url: The absolute `http` or `https` URL.
    ///   - headers: Headers to send, in order.
    ///   - body: The body to send, if any.
    ///   - maxResponseBytes: A response size cap for this request; the client's unless given.
    ///   - timeout: A total timeout for this request; the client's unless given.
    public init(
        method: String = "GET", url: String, headers: [(name: String, value: String)] = [],
        body: [UInt8]? = nil, maxResponseBytes: Int? = nil, timeout: Duration? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.maxResponseBytes = maxResponseBytes
        self.timeout = timeout
    }
}
