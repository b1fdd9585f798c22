import Foundation
import GRDB

/// A Web Push subscription: where and how to push an account's notifications, one per access token.
public struct PushSubscription: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "push_subscriptions"
    /// Snowflake id.
    public var id: Int64
    /// The subscribed account.
    public var accountId: Int64
    /// The access token that made it; revoking the token removes it.
    public var tokenId: Int64
    /// That token, sent in each payload as Mastodon does so the app knows which session it is for.
    public var accessToken: String
    /// The push service URL.
    public var endpoint: String
    /// The user agent's public key, base64url (65-byte uncompressed P-256 point).
    public var p256dh: String
    /// The user agent's auth secret, base64url (16 bytes).
    public var auth: String
    /// The enabled notification types between commas (`",mention,follow,"`).
    public var alerts: String
    /// Whose notifications are pushed: `all`, `followed`, `follower` or `none`.
    public var policy: String
    /// Whether the client asked for standard (RFC 8291) pushes.
    public var standard: Bool
    /// When it was created.
    public var createdAt: Date
    /// When it was last changed.
    public var updatedAt: Date

    /// Creates a subscription row.
    public init(
        id: Int64 = Snowflake.next(), accountId: Int64, tokenId: Int64, accessToken: String, endpoint: String,
        p256dh: String, auth: String, alerts: Set<String>, policy: String, standard: Bool, now: Date = Date()
    ) {
        self.id = id
        self.accountId = accountId
        self.tokenId = tokenId
        self.accessToken = accessToken
        self.endpoint = endpoint
        self.p256dh = p256dh
        self.auth = auth
        self.alerts = Self.encode(alerts)
        self.policy = policy
        self.standard = standard
        createdAt = now
        updatedAt = now
    }

    /// The enabled notification types.
    public var enabledAlerts: Set<String> { Set(alerts.split(separator: ",").map(String.init)) }

    /// The stored form of a set of alert types.
    public static func encode(_ alerts: Set<String>) -> String { "," + alerts.sorted().map { $0 + "," }.joined() }
}

/// One queued push of a notification to a subscription.
public struct PushDelivery: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "push_deliveries"
    /// Queue position.
    public var id: Int64
    /// The subscription to push to.
    public var subscriptionId: Int64
    /// The notification to push.
    public var notificationId: Int64
    /// Attempts made so far.
    public var attempts: Int
    /// When it is next due.
    public var nextAttemptAt: Date
    /// The push service's last HTTP status, if it answered.
    public var lastStatus: Int?
    /// Why the last attempt failed.
    public var lastError: String?
    /// When it was queued.
    public var createdAt: Date
}
