extension CurlHTTPClient {
    /// The settings of a `CurlHTTPClient`.
    public struct Configuration: Sendable {
        /// The `User-Agent` sent with every request; see `userAgent(publicURL:)`.
        public var userAgent: String
        /// How long establishing a connection (TCP and TLS) may take.
        public var connectTimeout: Duration
        /// How long a whole request may take, redirects included, from the moment it is submitted.
        public var totalTimeout: Duration
        /// The largest response body accepted, counted after decoding gzip or deflate.
        public var maxResponseBytes: Int
        /// How many redirects are followed; 0 returns a redirect response as it is.
        public var maxRedirects: Int
        /// Whether loopback, private and other non-public addresses may be connected to (test mode).
        public var allowPrivateAddresses: Bool
        /// How many connections to one host may be open at once; further requests wait for one.
        public var maxConnectionsPerHost: Int
        /// How many finished connections, across all hosts, stay open for the next request to
        /// the same host (libcurl's connection cache). libcurl's own default follows the requests
        /// in flight (four per transfer), so a node delivering to more hosts than that in turn
        /// would open and close a connection for every delivery.
        public var maxIdleConnections: Int
        /// How many requests to one peer address (an IPv4 address or an IPv6 /64) may be in flight
        /// at once, whatever names they were sent to; further ones fail at once with
        /// `HTTPClientError.addressBusy`, as do more than two to a host whose last request timed
        /// out (see `AddressLoad`).
        public var maxInFlightPerAddress: Int
        /// Fixed answers to name resolution, as libcurl's `HOST:PORT:ADDRESS`; honoured only
        /// with `allowPrivateAddresses` (tests stand in for DNS with it).
        public var resolve: [String] = []

        /// Creates a configuration.
        /// - Parameters:
        ///   - userAgent: The `User-Agent` header value.
        ///   - connectTimeout: The connect timeout; 10 seconds unless given.
        ///   - totalTimeout: The timeout for a whole request; 30 seconds unless given.
        ///   - maxResponseBytes: The response size cap; 4 MiB unless given.
        ///   - maxRedirects: How many redirects to follow; 3 unless given.
        ///   - allowPrivateAddresses: `true` only in test mode.
        ///   - maxConnectionsPerHost: The per-host connection limit; 8 unless given.
        ///   - maxIdleConnections: The connection cache's size; 256 unless given.
        ///   - maxInFlightPerAddress: Requests in flight to one peer address; 48 unless given.
        public init(
            userAgent: String, connectTimeout: Duration = .seconds(10),
            totalTimeout: Duration = .seconds(30), maxResponseBytes: Int = 4 * 1024 * 1024,
            maxRedirects: Int = 3, allowPrivateAddresses: Bool = false, maxConnectionsPerHost: Int = 8,
            maxIdleConnections: Int = 256, maxInFlightPerAddress: Int = 48
        ) {
            self.userAgent = userAgent
            self.connectTimeout = connectTimeout
            self.totalTimeout = totalTimeout
            self.maxResponseBytes = maxResponseBytes
            self.maxRedirects = maxRedirects
            self.allowPrivateAddresses = allowPrivateAddresses
            self.maxConnectionsPerHost = maxConnectionsPerHost
            self.maxIdleConnections = maxIdleConnections
            self.maxInFlightPerAddress = maxInFlightPerAddress
        }

        /// The `User-Agent` FedNode sends: the software, its version and the node's public URL, as
        /// remote admins expect to find who is calling (`fednode/0.1.0 (+https://social.example/)`).
        /// - Parameters:
        ///   - publicURL: The node's public URL, such as `https://social.example/`.
        ///   - version: The FedNode version.
        /// - Returns: The header value.
        public static func userAgent(publicURL: String, version: String = "0.1.0") -> String {
            "fednode/\(version) (+\(publicURL))"
        }
    }
}

extension Duration {
    /// The duration in whole milliseconds, at least 1 (libcurl reads 0 as "no timeout").
    package var curlMilliseconds: Int {
        let (seconds, attoseconds) = components
        let milliseconds = seconds.multipliedReportingOverflow(by: 1000)
        guard !milliseconds.overflow else { return Int.max }
        return max(1, Int(clamping: milliseconds.partialValue + attoseconds / 1_000_000_000_000_000))
    }
}
