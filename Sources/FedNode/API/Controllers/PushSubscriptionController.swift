import Core
import Foundation
import Hummingbird
import Signatures
import Storage

/// Web Push subscriptions (`/api/v1/push/subscription`): one per access token, scope `push`.
/// Notifications of the subscribed account are then pushed, encrypted (RFC 8291) and signed with
/// the node's VAPID key (RFC 8292), by `PushWorker`.
struct PushSubscriptionController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.post("api/v1/push/subscription", use: create)
        router.get("api/v1/push/subscription", use: show)
        router.put("api/v1/push/subscription", use: update)
        router.delete("api/v1/push/subscription", use: delete)
    }

    /// `POST /api/v1/push/subscription`: subscribes the token (replacing its earlier
    /// subscription) with `subscription[endpoint]`, `subscription[keys][p256dh|auth]` and
    /// optionally `data[alerts][...]` and `data[policy]`; answers the `WebPushSubscription`.
    /// 422 for an endpoint that is not https, or keys that are not a P-256 point and 16 bytes.
    @Sendable func create(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (caller, me) = try await node.apiAuth.user(of: request, scope: "push")
        let params = try await APIParams.read(request)
        let form = try PushSubscriptionForm(params, testMode: node.configuration.testMode)
        let subscription = PushSubscription(
            accountId: me.id, tokenId: caller.token.id, accessToken: APIAuth.bearerToken(of: request) ?? "",
            endpoint: form.endpoint, p256dh: form.p256dh, auth: form.auth, alerts: form.alerts ?? [],
            policy: form.policy ?? "all", standard: form.standard)
        try await PushSubscriptionService(node: node).subscribe(subscription)
        return APIResponse.json(APIWebPushSubscription(subscription, serverKey: node.vapidKey.publicKey))
    }

    /// `GET /api/v1/push/subscription`: the token's subscription; 404 without one.
    @Sendable func show(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (caller, _) = try await node.apiAuth.user(of: request, scope: "push")
        let subscription = try await node.database.read { db in try db.pushSubscriptions.find(tokenId: caller.token.id) }
        guard let subscription else { throw NodeError.notFound("Record not found") }
        return APIResponse.json(APIWebPushSubscription(subscription, serverKey: node.vapidKey.publicKey))
    }

    /// `PUT /api/v1/push/subscription`: changes `data[alerts][...]` and `data[policy]` only;
    /// 404 without a subscription.
    @Sendable func update(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (caller, _) = try await node.apiAuth.user(of: request, scope: "push")
        let params = try await APIParams.read(request)
        let alerts = PushSubscriptionForm.alerts(params)
        let policy = try PushSubscriptionForm.policy(params)
        let subscription = try await PushSubscriptionService(node: node).update(tokenId: caller.token.id, alerts: alerts, policy: policy)
        return APIResponse.json(APIWebPushSubscription(subscription, serverKey: node.vapidKey.publicKey))
    }

    /// `DELETE /api/v1/push/subscription`: removes the token's subscription; `{}` either way.
    @Sendable func delete(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (caller, _) = try await node.apiAuth.user(of: request, scope: "push")
        try await PushSubscriptionService(node: node).unsubscribe(tokenId: caller.token.id)
        return APIResponse.empty()
    }
}
