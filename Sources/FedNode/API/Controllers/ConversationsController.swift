import Core
import Foundation
import Hummingbird
import Storage

/// `/api/v1/conversations`: direct-message threads as the caller sees them
/// (docs.joinmastodon.org/methods/conversations).
struct ConversationsController {
    let node: Node
    private var access: CurationAccess { CurationAccess(node: node) }

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("api/v1/conversations", use: index)
        router.post("api/v1/conversations/:id/read", use: markRead)
        router.post("api/v1/conversations/:id/unread", use: markUnread)
        router.delete("api/v1/conversations/:id", use: destroy)
    }

    /// `GET /api/v1/conversations` (read:statuses): most recently active first, 20 by default,
    /// at most 40, paginated by the last post's id with `Link`.
    @Sendable func index(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "read:statuses")
        let page = try PageQuery(try await APIParams.read(request)).bounds
        let node = node
        let (entities, cursors) = try await access.read { db -> ([APIConversation], [Int64]) in
            let items = try db.conversations.page(of: me.id, page: page)
            return (try Self.render(items.map(\.item), viewer: me, node: node, db: db), items.map(\.cursor))
        }
        return APIResponse.json(entities, headers: PageQuery.headers(for: request, base: node.urls.base, ids: cursors))
    }

    /// `POST /api/v1/conversations/:id/read` (write:conversations): answers the conversation, read.
    @Sendable func markRead(_ request: Request, context: NodeRequestContext) async throws -> Response {
        try await mark(request, context, unread: false)
    }

    /// `POST /api/v1/conversations/:id/unread` (write:conversations): answers the conversation,
    /// unread again.
    @Sendable func markUnread(_ request: Request, context: NodeRequestContext) async throws -> Response {
        try await mark(request, context, unread: true)
    }

    private func mark(_ request: Request, _ context: NodeRequestContext, unread: Bool) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:conversations")
        let id = try CurationAccess.pathId(context)
        let node = node
        let conversation = try await ConversationService(node: node).mark(id, unread: unread, by: me)
        let entity = try await access.read { db -> APIConversation in
            try CurationAccess.found(try Self.render([conversation], viewer: me, node: node, db: db).first)
        }
        return APIResponse.json(entity)
    }

    /// `DELETE /api/v1/conversations/:id` (write:conversations): removes it from the caller's
    /// list (the posts stay); answers `{}`.
    @Sendable func destroy(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:conversations")
        let id = try CurationAccess.pathId(context)
        try await ConversationService(node: node).remove(id, by: me)
        return APIResponse.empty()
    }

    /// `Conversation` entities for `conversations`, loading every participant and last post of
    /// the page at once; a conversation whose last post the viewer can no longer see shows
    /// `last_status: null`.
    static func render(_ conversations: [Conversation], viewer: Account, node: Node, db: Transaction) throws -> [APIConversation] {
        let renderer = EntityRenderer(node: node, viewer: viewer, db: db)
        let accountRows = try db.accounts.find(ids: Set(conversations.flatMap(\.participants)))
        let accounts = Dictionary(uniqueKeysWithValues: zip(accountRows.map(\.id), try renderer.accounts(accountRows)))
        let posts = try db.posts.find(ids: Set(conversations.compactMap(\.lastPostId)))
        let visible = try posts.filter { try PostVisibility.canSee($0, viewer: viewer.id, in: db) }
        let statuses = Dictionary(try renderer.statuses(visible).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return conversations.map { conversation in
            APIConversation(id: String(conversation.id), unread: conversation.unread,
                            accounts: conversation.participants.compactMap { accounts[$0] },
                            lastStatus: conversation.lastPostId.flatMap { statuses[String($0)] })
        }
    }
}
