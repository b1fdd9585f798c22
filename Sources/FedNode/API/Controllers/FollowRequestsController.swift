import Core
import Foundation
import Hummingbird
import Storage

/// Follow requests to the caller (a locked account): `GET /api/v1/follow_requests`,
/// `POST /api/v1/follow_requests/:id/authorize` and `/reject`, where `:id` is the requester's
/// account id.
struct FollowRequestsController {
    let node: Node
    private var access: AccountAccess { AccountAccess(node: node) }

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("api/v1/follow_requests", use: list)
        router.post("api/v1/follow_requests/:id/authorize", use: authorize)
        router.post("api/v1/follow_requests/:id/reject", use: reject)
    }

    /// `GET /api/v1/follow_requests` (`read:follows`): the accounts waiting, newest request
    /// first, paged by the request's id.
    @Sendable func list(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:follows")
        return try await access.accountPage(request, viewer: me) { db, page in try db.follows.requesters(of: me.id, page: page) }
    }

    /// `POST /api/v1/follow_requests/:id/authorize` (`write:follows`): approves; answers the
    /// `Relationship` with the requester (now `followed_by`). 404 without a pending request.
    @Sendable func authorize(_ request: Request, context: NodeRequestContext) async throws -> Response {
        try await answer(request, context) { requester, me in try await node.interactions.authorizeFollowRequest(from: requester, to: me) }
    }

    /// `POST /api/v1/follow_requests/:id/reject` (`write:follows`): declines; answers the
    /// `Relationship`. 404 without a pending request.
    @Sendable func reject(_ request: Request, context: NodeRequestContext) async throws -> Response {
        try await answer(request, context) { requester, me in try await node.interactions.rejectFollowRequest(from: requester, to: me) }
    }

    private func answer(_ request: Request, _ context: NodeRequestContext,
                        _ action: (Int64, Account) async throws -> Void) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:follows")
        let requester = try await access.account(context)
        try await action(requester.id, me)
        let entity = try await access.read { db in try EntityRenderer(node: node, viewer: me, db: db).relationship(with: requester.id) }
        return APIResponse.json(entity)
    }
}
