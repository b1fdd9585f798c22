import Core
import Foundation
import Hummingbird
import Storage

/// `GET /api/v1/tags/:name`: a hashtag with its last week of use; following and unfollowing
/// hashtags (`/follow`, `/unfollow`, `GET /api/v1/followed_tags`).
struct TagsController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("api/v1/tags/:name", use: show)
        router.post("api/v1/tags/:name/follow", use: follow)
        router.post("api/v1/tags/:name/unfollow", use: unfollow)
        router.get("api/v1/followed_tags", use: followed)
    }

    /// `GET /api/v1/tags/:name`: the `Tag` with `history` (7 days, newest first) and, for a
    /// signed-in viewer, `following: false`. 404 for a tag never used here. A token, when sent,
    /// needs `read:follows`.
    @Sendable func show(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let access = AccountAccess(node: node)
        let viewer = try await access.viewer(of: request, scope: "read:follows")
        let name = SearchService.tagName(context.parameters.get("name")?.removingPercentEncoding ?? "")
        let tag = try await access.read { db -> APITag? in
            guard !name.isEmpty, let hashtag = try db.tags.find(name: name) else { return nil }
            return try TagHistory.tag(hashtag, urls: node.urls, viewer: viewer, in: db)
        }
        guard let tag else { throw NodeError.notFound("Record not found") }
        return APIResponse.json(tag)
    }

    /// `POST /api/v1/tags/:name/follow` (write:follows): follows the hashtag (created when never
    /// used here); answers the `Tag` with `following: true`. 404 for a name that is no hashtag.
    @Sendable func follow(_ request: Request, context: NodeRequestContext) async throws -> Response {
        try await setFollowing(true, request, context)
    }

    /// `POST /api/v1/tags/:name/unfollow` (write:follows): answers the `Tag` with `following: false`.
    @Sendable func unfollow(_ request: Request, context: NodeRequestContext) async throws -> Response {
        try await setFollowing(false, request, context)
    }

    /// `GET /api/v1/followed_tags` (read:follows): the caller's followed hashtags, newest
    /// follow first, 100 by default, at most 200, with `Link` pagination.
    @Sendable func followed(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:follows")
        let page = try PageQuery(try await APIParams.read(request), defaultLimit: 100, maxLimit: 200).bounds
        let node = node
        let (tags, cursors) = try await CurationAccess(node: node).read { db -> ([APITag], [Int64]) in
            let items = try db.followedTags.followed(by: me.id, page: page)
            return (try items.map { try TagHistory.tag($0.item, urls: node.urls, viewer: me, in: db) }, items.map(\.cursor))
        }
        return APIResponse.json(tags, headers: PageQuery.headers(for: request, base: node.urls.base, ids: cursors))
    }

    private func setFollowing(_ following: Bool, _ request: Request, _ context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:follows")
        let name = context.parameters.get("name")?.removingPercentEncoding ?? ""
        let hashtag = try await FollowedTagService(node: node).setFollowing(following, name: name, by: me)
        let node = node
        return APIResponse.json(try await CurationAccess(node: node).read { db in
            try TagHistory.tag(hashtag, urls: node.urls, viewer: me, in: db)
        })
    }
}
