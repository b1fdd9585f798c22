import Core
import Foundation
import Hummingbird
import Storage

/// Polls: read one, and vote (docs.joinmastodon.org/methods/polls). The poll's id is its post's.
struct PollsController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("api/v1/polls/:id", use: show)
        router.post("api/v1/polls/:id/votes", use: vote)
    }

    /// `GET /api/v1/polls/:id`: the poll of a post the viewer may see (404 otherwise).
    @Sendable func show(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let viewer = try await StatusAccess.viewer(of: request, node: node, scope: "read:statuses")
        let (node, id) = (node, try StatusAccess.pathId(context))
        let entity = try await StatusAccess.read(node) { db -> APIPoll in
            let post = try PostVisibility.visiblePost(id, viewer: viewer, in: db)
            guard let poll = try db.polls.find(post: post.id) else { throw NodeError.notFound("Record not found") }
            let own = try viewer.flatMap { try db.polls.choices(of: $0.id, inPolls: [post.id])[post.id] }
            return EntityRenderer(node: node, viewer: viewer, db: db).poll(poll, of: post, ownVotes: own)
        }
        return APIResponse.json(entity)
    }

    /// `POST /api/v1/polls/:id/votes` (write:statuses): `choices[]`, indices of the options
    /// (one, unless the poll allows several). Answers the poll with the vote counted; 422 for
    /// an ended poll, a second vote, one's own poll or choices that are not options.
    @Sendable func vote(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:statuses")
        let id = try StatusAccess.pathId(context)
        let raw = try await APIParams.read(request).strings("choices").map { $0.trimmingCharacters(in: .whitespaces) }
        let choices = raw.compactMap { Int($0) }
        guard !raw.isEmpty, choices.count == raw.count else { throw NodeError.validation("Validation failed: Choices are not valid for this poll") }
        let (post, poll) = try await PollService(node: node).vote(id, choices: choices, by: me)
        let node = node
        let entity = try await StatusAccess.read(node) { db -> APIPoll in
            let own = try db.polls.choices(of: me.id, inPolls: [post.id])[post.id]
            return EntityRenderer(node: node, viewer: me, db: db).poll(poll, of: post, ownVotes: own)
        }
        return APIResponse.json(entity)
    }
}
