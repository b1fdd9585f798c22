import Core
import Foundation
import HTTPTypes
import Hummingbird
import Storage

/// `/api/v1/statuses`: post, read, edit and delete photo posts and comments, and read a
/// post's thread (docs.joinmastodon.org/methods/statuses).
struct StatusesController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.post("api/v1/statuses", use: create)
        router.get("api/v1/statuses", use: index)
        router.get("api/v1/statuses/:id", use: show)
        router.put("api/v1/statuses/:id", use: edit)
        router.delete("api/v1/statuses/:id", use: delete)
        router.get("api/v1/statuses/:id/context", use: thread)
    }

    /// `POST /api/v1/statuses` (write:statuses): publishes a post or, with `in_reply_to_id`, a
    /// comment. An `Idempotency-Key` seen from the same account within an hour returns the
    /// post it created.
    @Sendable func create(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:statuses")
        let key = request.headers[.idempotencyKey].map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : String($0.prefix(200)) }
        if let key, let earlier = try await StatusAccess.read(node, { try $0.posts.created(withIdempotencyKey: key, by: me.id) }) {
            return try await StatusAccess.render(node, earlier, viewer: me)
        }
        let form = try StatusForm.create(try await APIParams.read(request))
        let parentId = try await StatusAccess.read(node) { db -> Int64? in
            try form.checkMedia(of: me, in: db)
            guard let parentId = form.inReplyToId else { return nil }
            guard let parent = try? PostVisibility.visiblePost(parentId, viewer: me, in: db) else {
                throw NodeError.notFound("The post you are trying to reply to does not appear to exist.")
            }
            return parent.reblogOfId ?? parent.id
        }
        var draft = PostService.Draft(text: form.text, mediaIds: form.mediaIds ?? [], visibility: form.visibility, inReplyToId: parentId)
        draft.spoilerText = form.spoilerText
        draft.sensitive = form.sensitive
        draft.language = form.language
        draft.poll = form.poll
        if let date = form.scheduledAt {
            let scheduled = try await ScheduledPostService(node: node).schedule(draft, at: date, by: me)
            return try await ScheduledStatusesController(node: node).render(scheduled, viewer: me)
        }
        draft.idempotencyKey = key
        let post = try await node.posts.create(draft, by: me)
        return try await StatusAccess.render(node, post, viewer: me)
    }

    /// `GET /api/v1/statuses/:id`: one post, for anyone who may see it (404 otherwise). A
    /// remote post's counts and replies are read again from its origin in the background.
    @Sendable func show(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let viewer = try await StatusAccess.viewer(of: request, node: node, scope: "read:statuses")
        let (node, id) = (node, try StatusAccess.pathId(context))
        let (post, status) = try await StatusAccess.read(node) { db -> (Post, APIStatus) in
            let post = try PostVisibility.visiblePost(id, viewer: viewer, in: db)
            return (post, try EntityRenderer(node: node, viewer: viewer, db: db).status(post))
        }
        await RemotePostRefresh.startIfDue(post, node: node)
        return APIResponse.json(status)
    }

    /// The most posts `GET /api/v1/statuses` returns at once (Mastodon's `DEFAULT_STATUSES_LIMIT`).
    static let indexLimit = 20

    /// `GET /api/v1/statuses?id[]=` (Mastodon 4.3): the posts with these ids that the viewer may
    /// see, in the order asked; unknown and hidden ones are left out, and, as Mastodon leaves
    /// them out, those by (or boosting) accounts the viewer mutes or on domains the viewer
    /// hides. 422 for more than 20 ids.
    @Sendable func index(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let viewer = try await StatusAccess.viewer(of: request, node: node, scope: "read:statuses")
        let ids = try await APIParams.read(request).ids("id")
        guard ids.count <= Self.indexLimit else { throw NodeError.validation("Validation failed: at most \(Self.indexLimit) ids") }
        let node = node
        let statuses = try await StatusAccess.read(node) { db -> [APIStatus] in
            let asked = try db.posts.find(inOrder: ids)
            let found = Dictionary(asked.map { ($0.id, $0) }) { first, _ in first }
            let visible = try asked.filter { post in
                guard try PostVisibility.canSee(post, viewer: viewer?.id, in: db) else { return false }
                guard let viewer else { return true }
                if post.accountId == viewer.id { return true }
                var authors = [post.accountId]
                if let originalId = post.reblogOfId, let original = try found[originalId] ?? db.posts.find(id: originalId) {
                    authors.append(original.accountId)
                }
                return try authors.allSatisfy { try !Self.hides($0, from: viewer.id, in: db) }
            }
            return try EntityRenderer(node: node, viewer: viewer, db: db).statuses(visible)
        }
        return APIResponse.json(statuses)
    }

    /// Whether `viewerId` leaves `authorId`'s posts out of a list of posts asked by id, as
    /// Mastodon's `StatusFilter` does: a mute in force or a hidden domain; never one's own.
    static func hides(_ authorId: Int64, from viewerId: Int64, in db: Transaction) throws -> Bool {
        guard authorId != viewerId else { return false }
        return try db.mutes.active(account: viewerId, target: authorId) != nil
            || db.accountDomainBlocks.hidesDomain(ofAccount: authorId, viewer: viewerId)
    }

    /// `PUT /api/v1/statuses/:id` (write:statuses): edits the caption, media (and, with
    /// `media_attributes`, their alt text and focal points), content warning, sensitivity or
    /// language of one's own post; sends `Update`.
    @Sendable func edit(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:statuses")
        let (params, id) = (try await APIParams.read(request), try StatusAccess.pathId(context))
        let form = try await StatusAccess.read(node) { db -> StatusForm in
            let post = try Self.ownPost(id, of: me, in: db)
            let hasMedia = try db.media.count(of: post.id) > 0
            let form = try StatusForm.edit(params, of: post, hasMedia: hasMedia)
            try form.checkMedia(of: me, editing: post.id, in: db)
            return form
        }
        let post = try await node.posts.edit(id, text: form.text, mediaIds: form.mediaIds,
                                             spoilerText: form.spoilerText, sensitive: form.sensitive, language: form.language,
                                             mediaEdits: form.mediaEdits, by: me)
        return try await StatusAccess.render(node, post, viewer: me)
    }

    /// `DELETE /api/v1/statuses/:id` (write:statuses): deletes one's own post (or takes back
    /// one's own boost) and answers the deleted status with its `text`, for delete-and-redraft.
    @Sendable func delete(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:statuses")
        let (node, id) = (node, try StatusAccess.pathId(context))
        let (post, status) = try await StatusAccess.read(node) { db -> (Post, APIStatus) in
            let post = try PostVisibility.visiblePost(id, viewer: me, in: db)
            guard post.accountId == me.id else { throw NodeError.forbidden("This action is not allowed") }
            return (post, try EntityRenderer(node: node, viewer: me, db: db).status(post))
        }
        if let originalId = post.reblogOfId {
            try await node.interactions.unreblog(originalId, by: me)
        } else {
            try await node.posts.delete(post.id, by: me)
        }
        return APIResponse.json(status.withText(post.text))
    }

    /// `GET /api/v1/statuses/:id/context`: the post's ancestors (oldest first) and its
    /// comments and their replies (in thread order), each only if the viewer may see it, with
    /// the viewer's `thread` filters applied.
    @Sendable func thread(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let viewer = try await StatusAccess.viewer(of: request, node: node, scope: "read:statuses")
        let (node, id) = (node, try StatusAccess.pathId(context))
        let (post, thread) = try await StatusAccess.read(node) { db -> (Post, APIContext) in
            let post = try PostVisibility.visiblePost(id, viewer: viewer, in: db)
            let (renderer, filters) = (EntityRenderer(node: node, viewer: viewer, db: db), try FilterSet.load(viewer: viewer, context: "thread", db: db))
            return (post, APIContext(
                ancestors: filters.apply(to: try renderer.statuses(try StatusThread.ancestors(of: post, viewer: viewer?.id, in: db))),
                descendants: filters.apply(to: try renderer.statuses(try StatusThread.descendants(of: post, viewer: viewer?.id, in: db)))))
        }
        // Comments from servers this node does not follow come from the post's `replies`.
        await RemotePostRefresh.startIfDue(post, node: node)
        return APIResponse.json(thread)
    }

    /// The caller's own post named by the path (404 if invisible, 403 if someone else's).
    private static func ownPost(_ id: Int64, of me: Account, in db: Transaction) throws -> Post {
        let post = try PostVisibility.visiblePost(id, viewer: me, in: db)
        guard post.accountId == me.id else { throw NodeError.forbidden("This action is not allowed") }
        guard post.reblogOfId == nil else { throw NodeError.notFound("Record not found") }
        return post
    }
}

extension HTTPField.Name {
    /// `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header).
    static var idempotencyKey: Self { .init("Idempotency-Key")! }
}
