import Core
import Hummingbird
import Storage

/// `POST /api/v1/accounts/:id/remove_from_followers` (write:follows,
/// docs.joinmastodon.org/methods/accounts#remove_from_followers): the caller stops being
/// followed by the account; a remote follower's server is told with `Reject(Follow)`.
struct FollowerRemovalController {
    let node: Node
    private var access: AccountAccess { AccountAccess(node: node) }

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.post("api/v1/accounts/:id/remove_from_followers", use: remove)
    }

    /// Removes the follower and answers the `Relationship` (`followed_by` now false).
    @Sendable func remove(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:follows")
        let follower = try await access.account(context)
        try await node.interactions.removeFollower(follower, of: me)
        let node = node
        let entity = try await access.read { db in try EntityRenderer(node: node, viewer: me, db: db).relationship(with: follower.id) }
        return APIResponse.json(entity)
    }
}
