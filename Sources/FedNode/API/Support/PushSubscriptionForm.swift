import Core
import Foundation
import Signatures

/// The parameters of `POST /api/v1/push/subscription`, checked.
struct PushSubscriptionForm {
    /// The longest endpoint URL accepted.
    static let maxEndpointLength = 2048

    /// The push service URL (https; http to a loopback host in test mode).
    var endpoint: String
    /// The user agent's public key, base64url of a 65-byte P-256 point.
    var p256dh: String
    /// The auth secret, base64url of 16 bytes.
    var auth: String
    /// The enabled alert types, if `data[alerts]` was sent.
    var alerts: Set<String>?
    /// The policy, if `data[policy]` was sent.
    var policy: String?
    /// `subscription[standard]`.
    var standard: Bool

    /// Reads and checks the form.
    /// - Throws: `NodeError.validation` (422) naming the first bad field.
    init(_ params: APIParams, testMode: Bool) throws(NodeError) {
        guard let endpoint = params.nonEmpty("subscription[endpoint]") else { throw .validation("Validation failed: Endpoint can't be blank") }
        guard Self.isAcceptable(endpoint: endpoint, testMode: testMode) else { throw .validation("Validation failed: Endpoint is not a valid https URL") }
        guard let p256dhText = params.nonEmpty("subscription[keys][p256dh]"), let key = Base64URL.decode(p256dhText),
            (try? P256Key(publicKey: key)) != nil
        else { throw .validation("Validation failed: Key p256dh is not an uncompressed P-256 public key") }
        guard let authText = params.nonEmpty("subscription[keys][auth]"), Base64URL.decode(authText)?.count == 16 else {
            throw .validation("Validation failed: Key auth is not a 16-byte secret")
        }
        self.endpoint = endpoint
        p256dh = Base64URL.encode(key)
        auth = authText
        alerts = Self.alerts(params)
        policy = try Self.policy(params)
        standard = params.bool("subscription[standard]") ?? false
    }

    /// The alert types `data[alerts][...]` enables, or `nil` when none was sent.
    static func alerts(_ params: APIParams) -> Set<String>? {
        var enabled: Set<String> = []
        var sent = false
        for type in APIWebPushSubscription.alertTypes {
            // Rails reads true, 1, on and yes as true and anything else as false.
            guard let value = params.bool("data[alerts][\(type)]") else { continue }
            sent = true
            if value { enabled.insert(type) }
        }
        return sent ? enabled : nil
    }

    /// `data[policy]` (or `policy`), or `nil` when neither was sent.
    /// - Throws: 422 for a policy other than all, followed, follower and none.
    static func policy(_ params: APIParams) throws(NodeError) -> String? {
        // Mastodon.py sends `policy` beside `data[alerts]`; Mastodon's own form nests it.
        guard let policy = params.nonEmpty("data[policy]") ?? params.nonEmpty("policy") else { return nil }
        guard APIWebPushSubscription.policies.contains(policy) else {
            throw .validation("Validation failed: Policy must be one of all, followed, follower, none")
        }
        return policy
    }

    /// Whether pushes may be sent to `endpoint`: an absolute https URL with a host (in test
    /// mode also http to a loopback host, where the test push services listen).
    static func isAcceptable(endpoint: String, testMode: Bool) -> Bool {
        guard endpoint.count <= maxEndpointLength, let url = URLComponents(string: endpoint),
            let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty
        else { return false }
        if scheme == "https" { return true }
        let loopback = host == "localhost" || host.hasPrefix("127.") || host == "::1" || host == "[::1]"
        return testMode && scheme == "http" && loopback
    }
}
