import Foundation
import Storage

/// Web Push subscriptions, one per access token.
package struct PushSubscriptionService: Sendable {
    package let node: Node

    /// Acts for `node`.
    package init(node: Node) {
        self.node = node
    }

    /// Stores `subscription`, replacing its token's earlier one.
    package func subscribe(_ subscription: PushSubscription) async throws(NodeError) {
        try await node.write("push subscription") { db in try db.pushSubscriptions.replace(with: subscription) }
    }

    /// Changes the alerts and the policy (those given) of token `tokenId`'s subscription.
    /// - Returns: The subscription changed.
    /// - Throws: `NodeError.notFound` when the token has none.
    package func update(tokenId: Int64, alerts: Set<String>?, policy: String?) async throws(NodeError) -> PushSubscription {
        let subscription = try await node.write("push subscription") { db in
            try db.pushSubscriptions.update(tokenId: tokenId, alerts: alerts, policy: policy)
        }
        guard let subscription else { throw .notFound("Record not found") }
        return subscription
    }

    /// Removes token `tokenId`'s subscription, if any.
    package func unsubscribe(tokenId: Int64) async throws(NodeError) {
        try await node.write("push subscription") { db in try db.pushSubscriptions.delete(tokenId: tokenId) }
    }
}
