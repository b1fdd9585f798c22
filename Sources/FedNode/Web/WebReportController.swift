import Core
import Foundation
import Hummingbird
import Storage

/// Reporting a post to the moderators from its page, through `ReportService` as
/// `POST /api/v1/reports` does (a remote author's server can be sent a copy).
struct WebReportController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("web/statuses/:id/report", use: form)
        router.post("web/statuses/:id/report", use: submit)
    }

    /// `GET /web/statuses/:id/report`: category, comment and, for a remote author, forwarding.
    @Sendable func form(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        guard let me = web.me else { return web.signInFirst() }
        return await web.handling {
            let (card, _) = try await reported(context, me: me)
            return try await web.page("report", title: "Report post", model: ["card": card, "remote": !card.author.local])
        }
    }

    /// `POST /web/statuses/:id/report` (category, comment, forward, csrf).
    @Sendable func submit(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        guard let me = web.me else { return web.signInFirst() }
        return await web.handling {
            let params = try await web.form()
            let (card, post) = try await reported(context, me: me)
            guard let author = try await StatusAccess.read(node, { db in try db.accounts.find(id: post.accountId) }) else {
                throw NodeError.notFound("There is no such account.")
            }
            let category = params.string("category").flatMap { ReportService.categories.contains($0) ? $0 : nil } ?? "other"
            let draft = ReportService.Draft(target: author, statusIds: [post.id], comment: String((params.string("comment") ?? "").prefix(ReportService.maxComment)),
                                            category: category, ruleIds: [], forward: params.bool("forward") == true)
            _ = try await ReportService(node: node).report(draft, by: me)
            return try await web.page("message", title: "Report sent", model: [
                "heading": "Thank you", "text": "The moderators of this server will look at the post by \(card.author.handle).", "backTo": card.path])
        }
    }

    /// The post of the path that `me` may see and did not write, with its card.
    private func reported(_ context: NodeRequestContext, me: Account) async throws -> (WebCard, Post) {
        let id = try StatusAccess.pathId(context)
        let node = node
        return try await StatusAccess.read(node) { db -> (WebCard, Post) in
            let post = try PostVisibility.visibleOriginal(id, viewer: me, in: db)
            guard post.accountId != me.id else { throw NodeError.validation("You cannot report your own post.") }
            return (WebCard(try EntityRenderer(node: node, viewer: me, db: db).status(post), viewer: me), post)
        }
    }
}
