import Foundation
import Signatures
import Storage

/// One push ready to send: the subscription and the payload for its notification.
package struct PushMessage {
    /// Where and for whom.
    package var subscription: PushSubscription
    /// What.
    package var payload: PushPayload

    /// Reads what `delivery` pushes, in one read transaction.
    /// - Returns: `nil` when there is nothing to push any more: the subscription or the
    ///   notification is gone, or the notification is no longer shown (a block since, say).
    package static func load(_ delivery: PushDelivery, node: Node) async throws -> PushMessage? {
        try await node.database.read { db -> PushMessage? in
            guard let subscription = try db.pushSubscriptions.find(id: delivery.subscriptionId),
                let notification = try db.notifications.find(id: delivery.notificationId),
                try db.notifications.isVisible(notification.id, to: notification.accountId),
                let from = try db.accounts.find(id: notification.fromAccountId)
            else { return nil }
            let post = try notification.postId.flatMap { try db.posts.find(id: $0) }
            let icon = node.urls.mediaURL(from.avatarUrl) ?? node.urls.base + "/static/avatar.png"
            let payload = PushPayload(notification: notification, from: from, post: post, subscription: subscription, icon: icon)
            return PushMessage(subscription: subscription, payload: payload)
        }
    }

    /// The HTTP request of RFC 8030 5 carrying the encrypted payload (RFC 8291) and the VAPID
    /// authorization (RFC 8292).
    /// - Throws: `WebPushError` when the subscription's keys are unusable.
    package func request(vapidKey: P256Key, subject: String, now: Date, ttl: Int) throws -> HTTPClientRequest {
        guard let key = Base64URL.decode(subscription.p256dh), let auth = Base64URL.decode(subscription.auth) else {
            throw WebPushError.invalidKey
        }
        let body = try WebPushEncryption.encrypt(payload.encoded(), subscriberKey: key, authSecret: auth)
        guard let authorization = try VAPIDToken.authorization(endpoint: subscription.endpoint, subject: subject, key: vapidKey, now: now)
        else { throw WebPushError.invalidKey }
        var request = HTTPClientRequest(
            method: "POST", url: subscription.endpoint,
            headers: [("Authorization", authorization), ("TTL", String(ttl)), ("Content-Encoding", "aes128gcm"),
                      ("Content-Type", "application/octet-stream"), ("Urgency", "normal")],
            body: body)
        request.statusIsEnough = true
        return request
    }
}
