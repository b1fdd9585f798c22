import Core
import Foundation
import Storage

/// Reading pages of posts for the web app the way the client API's timelines do: the same
/// Storage queries and visibility rule, the viewer's filters, and the whole page rendered by
/// `EntityRenderer` from one `RenderBatch` (plus one query for the cards' latest comments).
enum WebFeeds {
    /// Posts on a page of a feed or grid.
    static let pageSize = 12
    /// Comments shown under each card of a feed.
    static let commentsPerCard = 2

    /// One rendered page: the cards and the `max_id` of the next (older) page, if there may be one.
    struct Page: Sendable {
        /// The cards, newest first.
        let cards: [WebCard]
        /// Where "load more" continues.
        let nextMaxId: String?
    }

    /// The page `query` reads, as `viewer` sees it, with the filters of `context`.
    static func page(_ node: Node, viewer: Account?, context: String, comments: Bool,
                     _ query: @Sendable @escaping (Transaction) throws -> [Post]) async throws(NodeError) -> Page {
        try await StatusAccess.read(node) { db -> Page in
            let posts = try query(db)
            let renderer = EntityRenderer(node: node, viewer: viewer, db: db)
            let statuses = try FilterSet.load(viewer: viewer, context: context, db: db).apply(to: try renderer.statuses(posts))
            // Photo cards only: comments show under their post, not as cards of their own.
            var cards = statuses.filter { ($0.filtered?.isEmpty ?? true) && ($0.reblog?.value ?? $0).inReplyToId == nil }
                .map { WebCard($0, viewer: viewer) }
            if comments { try attachComments(to: &cards, viewer: viewer, renderer: renderer, db: db) }
            let next = posts.count == pageSize ? posts.last.map { String($0.id) } : nil
            return Page(cards: cards, nextMaxId: next)
        }
    }

    /// Adds each card's newest comments, read for all cards at once.
    private static func attachComments(to cards: inout [WebCard], viewer: Account?, renderer: EntityRenderer, db: Transaction) throws {
        let ids = cards.compactMap { Int64($0.id) }
        let replies = try db.posts.latestReplies(to: ids, perPost: commentsPerCard, viewer: viewer?.id)
        let rendered = try renderer.statuses(replies)
        let byParent = Dictionary(grouping: rendered, by: { $0.inReplyToId ?? "" })
        for index in cards.indices {
            cards[index].latestComments = (byParent[cards[index].id] ?? []).map { WebCard($0, viewer: viewer) }
        }
    }

    /// The `max_id` query parameter of a "load more" link.
    static func maxId(_ params: APIParams) -> Int64? { params.id("max_id") }

    /// The bounds of a page older than `maxId`.
    static func bounds(maxId: Int64?) -> PageBounds { PageBounds(maxId: maxId, sinceId: nil, minId: nil, limit: pageSize) }
}
