import Foundation
import Logging
import Signatures
import Storage

/// One running node's shared state and services: configuration, database, URL builder and
/// the services the HTTP controllers, the workers, the CLI and the tests all call.
public final class Node: Sendable {
    /// Effective configuration (after adopting the stored identity).
    public let configuration: NodeConfiguration
    /// The database (SQLite, or PostgreSQL shared with other processes).
    public let database: NodeDatabase
    /// Public URL builder.
    public let urls: NodeURLs
    /// Root logger.
    public let logger: Logger
    /// Local account management.
    public let accounts: AccountService
    /// Outgoing HTTP for federation (libcurl).
    public let httpClient: CurlHTTPClient
    /// The node's own actor, which signs fetches.
    package let instanceActor: InstanceActor
    /// Resolves signing keys for the inbox (cached).
    package let keys: KeyResolver
    /// Domain blocks and allows, held in memory.
    package let federationPolicy: FederationPolicyCache
    /// Wakes the inbox worker when an activity was queued.
    public let inboxSignal = WorkSignal()
    /// Wakes the delivery worker when deliveries were queued.
    public let deliverySignal = WorkSignal()
    /// The background workers running now (readiness).
    public let workers = WorkerRegistry()
    /// Throttles sign-up, login and token requests (counted in the database when several
    /// processes serve the node).
    public let rateLimiter: RateLimiter
    /// Counts failed sign-ins per account and locks it with a back-off (in the database).
    package let failedLogins: FailedLogins
    /// This process among those serving the node: the holder of the queued work it claims
    /// (`WorkLease`). Host name, process id and a random part, so it is never reused.
    public let processId: String
    /// The queued work this process claimed and is doing (renewed by `ClaimRenewal`).
    public let claimedWork = ClaimedWork()
    /// Processes uploaded photos with libvips, a bounded number at a time.
    public let mediaProcessor: MediaProcessor
    /// This node's metrics, served at `GET /metrics`.
    public let metrics: NodeMetrics
    /// Local copies of remote photos, avatars and covers (size- and age-bounded, LRU).
    public let remoteMedia: RemoteMediaCache
    /// Outgoing HTTP for remote media: the same SSRF guard, a larger response cap.
    package let mediaHTTPClient: CurlHTTPClient
    /// Bounded background work nobody waits for (outbox backfills of new followees).
    package let backgroundJobs = BackgroundJobs()
    /// Outbound mail, when an SMTP server is configured.
    package let mailer: SMTPMailer?
    /// The VAPID key pair Web Push messages are signed with (RFC 8292).
    public let vapidKey: P256Key

    /// Opens the node's database (migrating it) and checks the domain it was created with.
    /// - Parameters:
    ///   - configuration: Settings; a default identity is replaced by the stored one.
    ///   - logger: Root logger.
    /// - Throws: `NodeError.configuration` when the data directory belongs to another domain
    ///   or the database cannot be opened.
    public init(configuration: NodeConfiguration, logger: Logger) throws(NodeError) {
        let metrics = NodeMetrics()
        let database: NodeDatabase
        do {
            database = try NodeDatabase(location: configuration.databaseLocation) { metrics.recordGroupCommit(durable: $0, size: $1) }
        } catch {
            throw .configuration("\(error)")
        }
        let effective = try Self.pinIdentity(configuration, in: database)
        try Self.storeFederationMode(effective.federationMode, in: database)
        if effective.requireEmailConfirmation, effective.mail == nil {
            throw .configuration("--require-email-confirmation needs an SMTP server (--smtp-url and --smtp-from)")
        }
        self.mailer = effective.mail.map { SMTPMailer(url: $0.url, from: $0.from, domain: effective.domain, requireTLS: $0.requireTLS) }
        self.configuration = effective
        self.database = database
        self.rateLimiter = RateLimiter(shared: database.isShared ? database : nil)
        self.failedLogins = FailedLogins(database: database, backoff: effective.rateLimits.failedSignIns, logger: logger)
        self.processId = "\(ProcessInfo.processInfo.hostName)/\(getpid())/\(UUID().uuidString.prefix(8))"
        self.metrics = metrics
        self.mediaProcessor = MediaProcessor { kind, elapsed, succeeded in
            metrics.media.processed(kind, elapsed: elapsed, succeeded: succeeded)
        }
        self.logger = logger
        self.urls = NodeURLs(base: effective.publicURL, domain: effective.domain)
        self.accounts = AccountService(database: database, urls: urls, passwordCost: effective.passwordCost)
        self.instanceActor = try InstanceActor.load(database: database, base: effective.publicURL)
        self.vapidKey = try VAPIDKeys.load(database: database)
        var client = CurlHTTPClient.Configuration(userAgent: CurlHTTPClient.Configuration.userAgent(
            publicURL: effective.publicURL + "/", version: NodeConfiguration.softwareVersion), connectTimeout: .seconds(5))
        client.allowPrivateAddresses = effective.testMode
        if effective.testMode { client.resolve = effective.testResolve }
        self.httpClient = CurlHTTPClient(configuration: client)
        self.keys = KeyResolver(database: database)
        self.federationPolicy = FederationPolicyCache(database: database)
        var mediaClient = client
        mediaClient.maxResponseBytes = UploadStore.maxBytes
        let mediaHTTPClient = CurlHTTPClient(configuration: mediaClient)
        self.mediaHTTPClient = mediaHTTPClient
        let cacheDirectory = URL(fileURLWithPath: effective.dataDirectory).appendingPathComponent("cache/remote-media")
        do {
            self.remoteMedia = try RemoteMediaCache(directory: cacheDirectory, limits: effective.remoteMediaLimits) { url in
                try await RemoteMediaFetch.download(url, with: mediaHTTPClient)
            }
        } catch { throw .configuration("cannot open the remote media cache at \(cacheDirectory.path): \(error.message)") }
    }

    /// Posting, commenting, editing and deleting.
    public var posts: PostService { PostService(node: self) }
    /// Likes, follows and blocks.
    public var interactions: InteractionService { InteractionService(node: self) }
    /// Remote account lookup (by actor id or `user@domain`).
    public var remoteAccounts: RemoteActorResolver { RemoteActorResolver(node: self) }

    deinit {
        httpClient.shutdown()
        mediaHTTPClient.shutdown()
    }

    /// Records the domain and public URL on first start; afterwards insists on the same ones,
    /// because every stored actor id embeds them.
    private static func pinIdentity(_ configuration: NodeConfiguration, in database: NodeDatabase) throws(NodeError) -> NodeConfiguration {
        do {
            return try database.writeBlocking { db in
                var effective = configuration
                if let stored = try db.settings.value("domain") {
                    if configuration.adoptsStoredIdentity {
                        effective.domain = stored
                        effective.publicURL = try db.settings.value("public_url") ?? configuration.publicURL
                    } else if stored != configuration.domain {
                        throw NodeError.configuration(
                            "the data directory belongs to domain \(stored), not \(configuration.domain); use --domain \(stored) or another --data-dir")
                    }
                }
                try db.settings.set("domain", to: effective.domain)
                try db.settings.set("public_url", to: effective.publicURL)
                return effective
            }
        } catch let error as NodeError {
            throw error
        } catch {
            throw .configuration("cannot record node identity: \(error)")
        }
    }
}
