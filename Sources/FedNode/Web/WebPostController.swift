import Core
import Foundation
import Hummingbird
import Storage

/// A post's page (`/@acct/ID`) and what people do to posts: like, unlike, comment, edit and
/// delete. Forms work without JavaScript (303 back to the page); the script sends the like
/// forms with `X-FedNode-Fetch: 1` and gets the new count as JSON instead.
struct WebPostController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("@{username}/:id", use: detail)
        router.post("web/statuses/:id/like", use: like)
        router.post("web/statuses/:id/unlike", use: unlike)
        router.post("web/statuses/:id/comment", use: comment)
        router.post("web/statuses/:id/vote", use: vote)
        router.get("web/statuses/:id/edit", use: editForm)
        router.post("web/statuses/:id/edit", use: edit)
        router.post("web/statuses/:id/delete", use: delete)
    }

    /// `GET /@acct/ID`: the photos, caption, who liked it, the comment thread and a comment box.
    @Sendable func detail(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        return await web.handling {
            let id = try StatusAccess.pathId(context)
            let viewer = web.me
            let node = node
            let (card, thread, likers, uri) = try await StatusAccess.read(node) { db -> (WebCard, [WebCard], [WebAccountView], String) in
                let post = try PostVisibility.visibleOriginal(id, viewer: viewer, in: db)
                let renderer = EntityRenderer(node: node, viewer: viewer, db: db)
                let replies = try StatusThread.descendants(of: post, viewer: viewer?.id, in: db)
                let liked = try db.likes.likers(of: post.id, viewer: viewer?.id, page: PageBounds(limit: 12)).map(\.item)
                return (WebCard(try renderer.status(post), viewer: viewer),
                        try renderer.statuses(replies).map { WebCard($0, viewer: viewer) },
                        try renderer.accounts(liked).map(WebAccountView.init), post.uri)
            }
            let summary = HTMLText.plain(card.caption, limit: 140)
            let meta = WebMeta(title: "\(card.author.name) (\(card.author.handle))", description: summary,
                               image: card.cover?.src, url: node.urls.base + card.path, activityId: uri)
            let model: [String: Any] = ["card": card, "thread": thread, "likers": likers, "hasLikers": !likers.isEmpty]
            return try await web.page("post", title: "\(card.author.name): \(summary.prefix(60))", model: model, meta: meta)
        }
    }

    /// `POST /web/statuses/:id/like` (csrf, back).
    @Sendable func like(_ request: Request, context: NodeRequestContext) async throws -> Response {
        try await likeAction(request, context, liking: true)
    }

    /// `POST /web/statuses/:id/unlike` (csrf, back).
    @Sendable func unlike(_ request: Request, context: NodeRequestContext) async throws -> Response {
        try await likeAction(request, context, liking: false)
    }

    private func likeAction(_ request: Request, _ context: NodeRequestContext, liking: Bool) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        guard let me = web.me else { return web.signInFirst() }
        return await web.handling {
            let params = try await web.form()
            let id = try StatusAccess.pathId(context)
            let post = try await StatusAccess.read(node) { db in try PostVisibility.visibleOriginal(id, viewer: me, in: db) }
            if liking { try await node.interactions.like(post.id, by: me) } else { try await node.interactions.unlike(post.id, by: me) }
            guard web.wantsJSON else { return web.back(params, or: "/") }
            let count = try await StatusAccess.read(node) { db in try db.likes.count(on: post.id) }
            return WebResponses.json(["liked": liking, "count": count])
        }
    }

    /// `POST /web/statuses/:id/comment` (text, csrf, back): a comment with the post's audience.
    @Sendable func comment(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        guard let me = web.me else { return web.signInFirst() }
        return await web.handling {
            let params = try await web.form()
            let id = try StatusAccess.pathId(context)
            let post = try await StatusAccess.read(node) { db in try PostVisibility.visibleOriginal(id, viewer: me, in: db) }
            let text = params.nonEmpty("text") ?? ""
            guard !text.isEmpty else { throw NodeError.validation("Write something before sending the comment.") }
            guard StatusForm.countedLength(text) <= StatusForm.maxCharacters else {
                throw NodeError.validation("Comments are at most \(StatusForm.maxCharacters) characters.")
            }
            let visibility: Visibility = post.visibility == .public ? .public : post.visibility
            _ = try await node.posts.create(.init(text: text, visibility: visibility, inReplyToId: post.id), by: me)
            return web.back(params, or: "/")
        }
    }

    /// `POST /web/statuses/:id/vote` (choices, csrf, back): votes in the post's poll.
    @Sendable func vote(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        guard let me = web.me else { return web.signInFirst() }
        return await web.handling {
            let params = try await web.form()
            let choices = params.strings("choices").compactMap { Int($0) }
            guard !choices.isEmpty else { throw NodeError.validation("Pick a choice before voting.") }
            _ = try await PollService(node: node).vote(try StatusAccess.pathId(context), choices: choices, by: me)
            return web.back(params, or: "/")
        }
    }

    /// `GET /web/statuses/:id/edit`: the author's caption editor.
    @Sendable func editForm(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        guard let me = web.me else { return web.signInFirst() }
        return await web.handling {
            let card = try await ownCard(context, me: me)
            return try await web.page("edit_post", title: "Edit post", model: ["card": card])
        }
    }

    /// `POST /web/statuses/:id/edit` (text, csrf): changes the caption (an `Update` follows).
    @Sendable func edit(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        guard let me = web.me else { return web.signInFirst() }
        return await web.handling {
            let params = try await web.form()
            let card = try await ownCard(context, me: me)
            let text = params.string("text") ?? ""
            guard StatusForm.countedLength(text) <= StatusForm.maxCharacters else {
                throw NodeError.validation("Captions are at most \(StatusForm.maxCharacters) characters.")
            }
            _ = try await node.posts.edit(try StatusAccess.pathId(context), text: text, by: me)
            return WebResponses.redirect(card.path)
        }
    }

    /// `POST /web/statuses/:id/delete` (csrf): deletes the author's post everywhere.
    @Sendable func delete(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        guard let me = web.me else { return web.signInFirst() }
        return await web.handling {
            _ = try await web.form()
            _ = try await ownCard(context, me: me)
            try await node.posts.delete(try StatusAccess.pathId(context), by: me)
            return WebResponses.redirect("/@\(me.username)")
        }
    }

    /// The card of the path's post, when `me` wrote it (404 otherwise, never saying it exists).
    private func ownCard(_ context: NodeRequestContext, me: Account) async throws -> WebCard {
        let id = try StatusAccess.pathId(context)
        let node = node
        return try await StatusAccess.read(node) { db -> WebCard in
            let post = try PostVisibility.visiblePost(id, viewer: me, in: db)
            guard post.accountId == me.id, post.reblogOfId == nil else { throw NodeError.notFound("Record not found") }
            return WebCard(try EntityRenderer(node: node, viewer: me, db: db).status(post), viewer: me)
        }
    }
}
