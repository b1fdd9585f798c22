import Foundation
import Logging
import Storage

/// Everything a node needs to know to start. Built by the CLI from flags, `FEDNODE_*`
/// environment variables and defaults, in that order of precedence.
public struct NodeConfiguration: Sendable {
    /// Address the HTTP server binds to (`--host`, `FEDNODE_HOST`).
    public var host: String = "127.0.0.1"
    /// Port the HTTP server listens on (`--port`, `FEDNODE_PORT`).
    public var port: Int = 8080
    /// Directory holding the SQLite database and media (`--data-dir`, `FEDNODE_DATA_DIR`).
    public var dataDirectory: String = "./data"
    /// The PostgreSQL database holding the node's data instead of SQLite in the data directory
    /// (`--database postgres://user@host/db`, `FEDNODE_DATABASE_URL`); media stay in the data
    /// directory either way.
    public var databaseURL: String?
    /// What this process does (`--role`): everything, HTTP only or background work only.
    /// Split roles need a database several processes share (PostgreSQL).
    public var role: NodeRole = .all
    /// The name in handles and ids, such as `social.example` or `127.0.0.1:8081`
    /// (`--domain`, `FEDNODE_DOMAIN`). Lowercased.
    public var domain: String
    /// Public base URL without a trailing slash (`--public-url`, `FEDNODE_PUBLIC_URL`).
    public var publicURL: String
    /// True when neither the domain nor the public URL was given, so the node adopts the ones
    /// its database was first started with (admin commands then need no `--domain`).
    public var adoptsStoredIdentity: Bool = false
    /// Plain http and loopback/private addresses allowed, for tests and the test network
    /// (`--test-mode`, `FEDNODE_TEST_MODE`).
    public var testMode: Bool = false
    /// Names the node's HTTP clients resolve to fixed addresses, as libcurl's `HOST:PORT:ADDRESS`
    /// (test mode only: a stand-in for DNS, so tests can reach a name such as `evil.example.`).
    public var testResolve: [String] = []
    /// Log level (`--log-level`, `FEDNODE_LOG_LEVEL`).
    public var logLevel: Logger.Level = .info
    /// Name of the node shown in NodeInfo and the instance API (`--node-name`, `FEDNODE_NODE_NAME`).
    public var nodeName: String = "FedNode"
    /// Who may sign up (`--registrations open|approval|closed`, `FEDNODE_REGISTRATIONS`).
    public var registrations: RegistrationMode = .open
    /// Whether sign-up is possible without an invite; setting it picks `open` or `closed`
    /// (`--open-registrations`, `FEDNODE_OPEN_REGISTRATIONS`, kept for existing setups).
    public var openRegistrations: Bool {
        get { registrations.acceptsSignUps }
        set { registrations = newValue ? .open : .closed }
    }
    /// Federate with every domain not blocked, or only with allowed ones
    /// (`--federation-mode`, `FEDNODE_FEDERATION_MODE`). Stored in the database when given;
    /// nil keeps the stored mode (block-list when never set).
    public var federationMode: FederationMode?
    /// scrypt cost as log2(N) for new password hashes (`FEDNODE_PASSWORD_COST`, default 15).
    public var passwordCost: Int = 15
    /// Per-address limits on sign-up, login and token requests, and per-account failed logins.
    public var rateLimits = RateLimits()
    /// Proxies whose `X-Forwarded-For` names the client (`--trusted-proxy`, `FEDNODE_TRUSTED_PROXIES`).
    public var trustedProxies = TrustedProxies.loopback
    /// Who may read `GET /metrics` (`--metrics`, `FEDNODE_METRICS`): loopback and private
    /// networks by default.
    public var metrics = MetricsExposure.private
    /// Connection limits and timeouts of the HTTP server.
    public var serverLimits = ServerLimits()
    /// Bounds of the remote media cache (total size, age, per-file size).
    public var remoteMediaLimits = RemoteCacheLimits(maxTotalBytes: 1 << 30, maxAge: 7 * 86_400, maxFileBytes: 16 << 20)

    /// The shortest time a poll made here stays open, in seconds (`--min-poll-duration`;
    /// Mastodon's five minutes by default).
    public var minimumPollDuration = 300
    /// How far ahead, in seconds, a post must be scheduled (`--min-schedule-lead`; Mastodon's
    /// five minutes by default).
    public var minimumScheduleLead = 300

    /// The SMTP server for outbound mail; `nil` when none is configured.
    public var mail: MailSettings?
    /// Whether people who sign up must confirm their email before using their account
    /// (`--require-email-confirmation`; needs `mail`).
    public var requireEmailConfirmation = false

    /// Creates a configuration; `publicURL` defaults from the domain and test mode.
    public init(domain: String, publicURL: String? = nil, testMode: Bool = false) {
        self.domain = domain.lowercased()
        self.testMode = testMode
        self.publicURL = (publicURL ?? Self.defaultPublicURL(domain: domain, testMode: testMode)).trimmingTrailingSlashes
    }

    /// `http://DOMAIN` in test mode or for a loopback domain (no certificate exists for those),
    /// otherwise `https://DOMAIN`, which production nodes serve behind a TLS proxy.
    public static func defaultPublicURL(domain: String, testMode: Bool) -> String {
        let host = domain.split(separator: ":").first.map(String.init)?.lowercased() ?? domain
        let loopback = host == "localhost" || host.hasPrefix("127.") || host == "[::1]"
        return (testMode || loopback ? "http://" : "https://") + domain.lowercased()
    }

    /// Path of the SQLite database inside the data directory.
    public var databasePath: String { (dataDirectory as NSString).appendingPathComponent("fednode.sqlite") }

    /// Where the node's data is: the PostgreSQL URL when one is set, else the SQLite file.
    public var databaseLocation: String { databaseURL ?? databasePath }

    /// Version reported in NodeInfo, the User-Agent and the instance API.
    public static let softwareVersion = "0.1.0"
}

extension String {
    /// The string without trailing `/` characters.
    package var trimmingTrailingSlashes: String {
        var result = self
        while result.hasSuffix("/") { result.removeLast() }
        return result
    }
}
