import Core
import Foundation
import Hummingbird
import Storage

/// Bookmarks and muted conversations: private to their owner, never federated
/// (docs.joinmastodon.org/methods/statuses `bookmark`/`unbookmark`, `mute`/`unmute`, /methods/bookmarks).
struct BookmarksController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.post("api/v1/statuses/:id/bookmark", use: bookmark)
        router.post("api/v1/statuses/:id/unbookmark", use: unbookmark)
        router.get("api/v1/bookmarks", use: bookmarks)
        router.post("api/v1/statuses/:id/mute", use: muteConversation)
        router.post("api/v1/statuses/:id/unmute", use: unmuteConversation)
    }

    /// `POST /api/v1/statuses/:id/mute` (write:mutes): no more notifications about the posts
    /// of this post's conversation; answers the post with `muted: true`.
    @Sendable func muteConversation(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:mutes")
        let post = try await ConversationMuteService(node: node).mute(try StatusAccess.pathId(context), by: me)
        return try await StatusAccess.render(node, post, viewer: me)
    }

    /// `POST /api/v1/statuses/:id/unmute` (write:mutes): notifications about the conversation
    /// come again; answers the post with `muted: false`.
    @Sendable func unmuteConversation(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:mutes")
        let post = try await ConversationMuteService(node: node).unmute(try StatusAccess.pathId(context), by: me)
        return try await StatusAccess.render(node, post, viewer: me)
    }

    /// `POST /api/v1/statuses/:id/bookmark` (write:bookmarks): bookmarks a visible post (a boost
    /// stands for the boosted post); answers it with `bookmarked: true`.
    @Sendable func bookmark(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:bookmarks")
        let id = try StatusAccess.pathId(context)
        let post = try await BookmarkService(node: node).add(id, by: me)
        return try await StatusAccess.render(node, post, viewer: me)
    }

    /// `POST /api/v1/statuses/:id/unbookmark` (write:bookmarks): removes the caller's bookmark
    /// (also of a post no longer visible); answers the post with `bookmarked: false`.
    @Sendable func unbookmark(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:bookmarks")
        let id = try StatusAccess.pathId(context)
        let post = try await BookmarkService(node: node).remove(id, by: me)
        return try await StatusAccess.render(node, post, viewer: me)
    }

    /// `GET /api/v1/bookmarks` (read:bookmarks): the caller's bookmarked posts that are still
    /// visible, newest bookmark first, paginated by bookmark with `Link`.
    @Sendable func bookmarks(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:bookmarks")
        let page = try PageQuery(try await APIParams.read(request)).bounds
        let node = node
        let (ids, statuses) = try await StatusAccess.read(node) { db -> ([Int64], [APIStatus]) in
            let newest = try db.bookmarks.bookmarkedPosts(by: me.id, page: page)
            let statuses = try EntityRenderer(node: node, viewer: me, db: db).statuses(newest.map(\.item))
            return (newest.map(\.cursor), statuses)
        }
        return APIResponse.json(statuses, headers: PageQuery.headers(for: request, base: node.urls.base, ids: ids))
    }
}
