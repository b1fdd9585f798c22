import ArgumentParser
import Core
import FedNode
import Foundation
import Logging
import Storage

/// Settings shared by every command. Precedence: flag, then `FEDNODE_*` environment
/// variable, then default.
struct NodeOptions: ParsableArguments {
    @Option(help: "Address to bind (env FEDNODE_HOST, default 127.0.0.1).")
    var host: String?
    @Option(help: "Port to listen on (env FEDNODE_PORT, default 8080).")
    var port: Int?
    @Option(name: .customLong("data-dir"), help: "Directory for the database and media (env FEDNODE_DATA_DIR, default ./data).")
    var dataDir: String?
    @Option(help: "PostgreSQL database for the node's data, e.g. postgres://fednode@localhost/fednode or postgres://fednode@/fednode?host=/run/postgresql (env FEDNODE_DATABASE_URL; default SQLite in the data directory).")
    var database: String?
    @Option(help: "Name in handles and ids, e.g. social.example or 127.0.0.1:8081 (env FEDNODE_DOMAIN, default: the one the data directory was created with, else localhost:PORT).")
    var domain: String?
    @Option(name: .customLong("public-url"), help: "Public base URL (env FEDNODE_PUBLIC_URL, default https://DOMAIN, or http:// in test mode or for localhost).")
    var publicURL: String?
    @Flag(name: [.customLong("test-mode"), .customLong("allow-private-addresses")], help: "Plain http and loopback/private addresses allowed, for tests and the test network (env FEDNODE_TEST_MODE=1).")
    var testMode = false
    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical (env FEDNODE_LOG_LEVEL, default info).")
    var logLevel: String?
    @Option(name: .customLong("node-name"), help: "Name shown in NodeInfo and the instance API (env FEDNODE_NODE_NAME, default FedNode).")
    var nodeName: String?
    @Option(name: .customLong("open-registrations"), help: "Whether anyone may sign up: true or false (env FEDNODE_OPEN_REGISTRATIONS, default true).")
    var openRegistrations: Bool?
    @Option(help: "Who may sign up: open, approval (a moderator approves each sign-up, which gives a reason) or closed (invite links only) (env FEDNODE_REGISTRATIONS; default open, or what --open-registrations says).")
    var registrations: String?
    @Option(name: .customLong("federation-mode"), help: "blocklist (federate with every domain not blocked) or allowlist (only with domains allowed by `fednode admin domain-allow` or /api/v1/admin/domain_allows) (env FEDNODE_FEDERATION_MODE; remembered in the database; default blocklist).")
    var federationMode: String?
    @Option(name: .customLong("trusted-proxy"), help: "Address or CIDR range of a reverse proxy whose X-Forwarded-For names the client; repeatable (env FEDNODE_TRUSTED_PROXIES, comma-separated; default loopback).")
    var trustedProxies: [String] = []
    @Option(help: "Who may read GET /metrics (Prometheus): off, private (loopback and private networks, no forwarded public client) or public (env FEDNODE_METRICS, default private).")
    var metrics: String?
    @Option(name: .customLong("min-poll-duration"), help: "Shortest time a poll made here stays open, in seconds, 1 or more (env FEDNODE_MIN_POLL_DURATION, default 300 as Mastodon).")
    var minPollDuration: Int?
    @Option(name: .customLong("min-schedule-lead"), help: "How far ahead, in seconds, a post must be scheduled, 1 or more (env FEDNODE_MIN_SCHEDULE_LEAD, default 300 as Mastodon).")
    var minScheduleLead: Int?
    @OptionGroup var mail: MailOptions

    /// The effective configuration.
    /// - Throws: `ValidationError` for values that cannot be used.
    func makeConfiguration(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> NodeConfiguration {
        let port = try port ?? environment["FEDNODE_PORT"].map(Self.parsePort) ?? 8080
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        let testMode = testMode || Self.truthy(environment["FEDNODE_TEST_MODE"])
        let explicitDomain = domain ?? environment["FEDNODE_DOMAIN"]
        let explicitURL = publicURL ?? environment["FEDNODE_PUBLIC_URL"]
        let domain = explicitDomain ?? "localhost:\(port)"
        try Self.checkDomain(domain)
        if let explicitURL { try Self.checkURL(explicitURL) }
        var configuration = NodeConfiguration(domain: domain, publicURL: explicitURL, testMode: testMode)
        configuration.adoptsStoredIdentity = explicitDomain == nil && explicitURL == nil
        configuration.host = host ?? environment["FEDNODE_HOST"] ?? "127.0.0.1"
        configuration.port = port
        configuration.dataDirectory = dataDir ?? environment["FEDNODE_DATA_DIR"] ?? "./data"
        if let url = database ?? environment["FEDNODE_DATABASE_URL"], !url.isEmpty {
            guard DatabaseURL(url) != nil else {
                throw ValidationError("--database must be a PostgreSQL URL: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE (or ?host=/socket/directory)")
            }
            configuration.databaseURL = url
        }
        configuration.logLevel = try Self.parseLevel(logLevel ?? environment["FEDNODE_LOG_LEVEL"] ?? "info")
        configuration.nodeName = nodeName ?? environment["FEDNODE_NODE_NAME"] ?? "FedNode"
        if let seconds = minPollDuration ?? environment["FEDNODE_MIN_POLL_DURATION"].flatMap({ Int($0) }) {
            guard (1...PollService.maxExpiry).contains(seconds) else { throw ValidationError("--min-poll-duration must be 1 to \(PollService.maxExpiry) seconds") }
            configuration.minimumPollDuration = seconds
        }
        if let seconds = minScheduleLead ?? environment["FEDNODE_MIN_SCHEDULE_LEAD"].flatMap({ Int($0) }) {
            guard seconds >= 1 else { throw ValidationError("--min-schedule-lead must be 1 second or more") }
            configuration.minimumScheduleLead = seconds
        }
        configuration.openRegistrations = openRegistrations ?? environment["FEDNODE_OPEN_REGISTRATIONS"].map(Self.truthy) ?? true
        if let mode = registrations ?? environment["FEDNODE_REGISTRATIONS"] {
            guard let parsed = RegistrationMode(rawValue: mode.lowercased()) else { throw ValidationError("--registrations must be open, approval or closed") }
            configuration.registrations = parsed
        }
        if let mode = federationMode ?? environment["FEDNODE_FEDERATION_MODE"] {
            guard let parsed = FederationMode(rawValue: mode.lowercased()) else { throw ValidationError("--federation-mode must be blocklist or allowlist") }
            configuration.federationMode = parsed
        }
        let proxies = trustedProxies.isEmpty ? environment["FEDNODE_TRUSTED_PROXIES"].map { [$0] } : trustedProxies
        if let proxies {
            guard let parsed = TrustedProxies(parsing: proxies) else {
                throw ValidationError("--trusted-proxy must be an IP address or CIDR range, such as 10.0.0.5 or 10.0.0.0/8")
            }
            configuration.trustedProxies = parsed
        }
        if let exposure = metrics ?? environment["FEDNODE_METRICS"] {
            guard let parsed = MetricsExposure(rawValue: exposure.lowercased()) else {
                throw ValidationError("--metrics must be off, private or public")
            }
            configuration.metrics = parsed
        }
        try mail.apply(to: &configuration, environment: environment)
        if let cost = environment["FEDNODE_PASSWORD_COST"] {
            guard let value = Int(cost), (10...20).contains(value) else { throw ValidationError("FEDNODE_PASSWORD_COST must be 10...20") }
            configuration.passwordCost = value
        }
        return configuration
    }

    /// A logger writing structured lines (level, label, key=value metadata) to stderr.
    func makeLogger(level: Logger.Level) -> Logger {
        var logger = Logger(label: "fednode") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = level
        return logger
    }

    private static func parsePort(_ text: String) throws -> Int {
        guard let value = Int(text) else { throw ValidationError("FEDNODE_PORT must be a number") }
        return value
    }

    private static func parseLevel(_ text: String) throws -> Logger.Level {
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
        }
        return level
    }

    private static func truthy(_ text: String?) -> Bool {
        ["1", "true", "yes", "on"].contains(text?.lowercased() ?? "")
    }

    private static func checkDomain(_ domain: String) throws {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]")
        guard !domain.isEmpty, domain.unicodeScalars.allSatisfy(allowed.contains), !domain.hasPrefix("."), !domain.hasPrefix("-") else {
            throw ValidationError("--domain must be a host name with an optional port, such as social.example or 127.0.0.1:8081")
        }
    }

    private static func checkURL(_ url: String) throws {
        guard let components = URLComponents(string: url), ["http", "https"].contains(components.scheme ?? ""),
            components.host?.isEmpty == false, components.query == nil
        else { throw ValidationError("--public-url must be an http(s) URL such as https://social.example") }
    }
}
