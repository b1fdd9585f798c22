import Core
import Foundation
import Hummingbird
import Storage

/// Pinning posts to one's profile: `POST /api/v1/statuses/:id/pin|unpin`
/// (docs.joinmastodon.org/methods/statuses#pin). Pinned posts are listed by
/// `GET /api/v1/accounts/:id/statuses?pinned=true` and federate as the `featured` collection.
struct PinsController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.post("api/v1/statuses/:id/pin", use: pin)
        router.post("api/v1/statuses/:id/unpin", use: unpin)
    }

    /// `POST /api/v1/statuses/:id/pin` (write:accounts): pins one's own public or unlisted
    /// post, at most `PinService.maxPins` (422 beyond, and for others' posts, boosts,
    /// followers-only and direct posts); answers it with `pinned: true`.
    @Sendable func pin(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:accounts")
        let post = try await PinService(node: node).pin(try StatusAccess.pathId(context), by: me)
        return try await StatusAccess.render(node, post, viewer: me)
    }

    /// `POST /api/v1/statuses/:id/unpin` (write:accounts): unpins a visible post; answers it
    /// with `pinned: false`.
    @Sendable func unpin(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:accounts")
        let id = try StatusAccess.pathId(context)
        _ = try await StatusAccess.read(node) { db in try PostVisibility.visiblePost(id, viewer: me, in: db) }
        let post = try await PinService(node: node).unpin(id, by: me)
        return try await StatusAccess.render(node, post, viewer: me)
    }
}
