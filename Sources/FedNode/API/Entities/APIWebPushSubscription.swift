import Core
import Signatures
import Storage

/// Mastodon's `WebPushSubscription` entity: `{id, endpoint, standard, alerts, server_key, policy}`.
public struct APIWebPushSubscription: Codable, Sendable, Equatable {
    /// The alert types a subscription can ask for, with Mastodon's names.
    public static let alertTypes = ["mention", "status", "reblog", "follow", "follow_request", "favourite", "poll", "update",
                                    "admin.sign_up", "admin.report"]
    /// The push policies: whose notifications are pushed.
    public static let policies: Set<String> = ["all", "followed", "follower", "none"]

    /// Subscription id.
    public var id: String
    /// The push service URL.
    public var endpoint: String
    /// Whether pushes follow the standards (RFC 8291 `aes128gcm`, RFC 8292 VAPID): always, since
    /// the node sends no other kind (not the legacy `aesgcm` draft).
    public var standard: Bool
    /// Every alert type and whether it is pushed.
    public var alerts: [String: Bool]
    /// The node's VAPID public key (base64url), which signs the pushes.
    public var serverKey: String
    /// `all`, `followed`, `follower` or `none`.
    public var policy: String

    /// The entity for a stored subscription.
    public init(_ subscription: PushSubscription, serverKey: [UInt8]) {
        id = String(subscription.id)
        endpoint = subscription.endpoint
        standard = true
        let enabled = subscription.enabledAlerts
        alerts = Dictionary(uniqueKeysWithValues: Self.alertTypes.map { ($0, enabled.contains($0)) })
        self.serverKey = Base64URL.encode(serverKey)
        policy = subscription.policy
    }
}
