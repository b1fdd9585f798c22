import Foundation
import GRDB

// Link preview cards: the tables `preview_cards` and `post_preview_cards`.

extension Transaction {
    /// Link preview cards.
    public var previewCards: PreviewCards { PreviewCards(db: session) }
}

/// Link preview cards and the posts showing them.
public struct PreviewCards { let db: SQLSession }

/// A link shared in recent public posts, as the link trends rank it.
public struct TrendingLink: Sendable, Equatable {
    /// The card.
    public var card: PreviewCard
    /// Distinct authors who shared it in the window.
    public var accounts: Int
}

extension PreviewCards {
    /// The card of `url`, if one was stored.
    public func find(url: String) throws -> PreviewCard? { try PreviewCard.filter(Column("url") == url).fetchOne(db) }

    /// Stores `card` unless its URL already has one, then shows that URL's card on `postId`
    /// (a post deleted meanwhile is left alone).
    /// - Returns: The stored card.
    @discardableResult
    public func attach(_ card: PreviewCard, to postId: Int64) throws -> PreviewCard {
        try card.insert(db, onConflict: .ignore)
        guard let stored = try find(url: card.url) else { return card }
        try db.execute(cached: """
            INSERT OR IGNORE INTO post_preview_cards(post_id, preview_card_id) SELECT id, ? FROM posts WHERE id = ?
            """, arguments: [stored.id, postId])
        return stored
    }

    /// Shows the already stored card of `url` on `postId`, if there is one.
    /// - Returns: Whether a card was known.
    public func attachKnown(url: String, to postId: Int64) throws -> Bool {
        guard let card = try find(url: url) else { return false }
        try attach(card, to: postId)
        return true
    }

    /// The cards of the posts among `postIds` that have one, by post id.
    public func cards(ofPosts postIds: some Collection<Int64>) throws -> [Int64: PreviewCard] {
        let cards = try BatchQuery.rows(db, postIds, sql: """
            SELECT pc.post_id AS card_post_id, c.* FROM \(BatchQuery.idTable) CROSS JOIN post_preview_cards pc
              JOIN preview_cards c ON c.id = pc.preview_card_id
            WHERE pc.post_id = \(BatchQuery.idValue)
            """) { (($0["card_post_id"] as Int64), try PreviewCard(row: $0)) }
        return Dictionary(cards) { first, _ in first }
    }

    /// Cards of links in public, non-sensitive posts since `since` by discoverable accounts
    /// outside blocked domains, shared by the most distinct authors first.
    public func trending(since: Date, offset: Int, limit: Int) throws -> [TrendingLink] {
        let window = Posts.madeSince(since)
        let rows = try Row.fetchAll(db, sql: """
            SELECT c.*, COUNT(DISTINCT p.account_id) AS trend_accounts
            FROM post_preview_cards pc JOIN posts p ON p.id = pc.post_id JOIN preview_cards c ON c.id = pc.preview_card_id
            JOIN accounts a ON a.id = p.account_id
            WHERE \(window.sql) AND p.visibility = 'public' AND p.sensitive = 0 AND p.spoiler_text = ''
              AND a.discoverable = 1 AND \(Directory.listable("a"))
            GROUP BY c.id ORDER BY trend_accounts DESC, COUNT(*) DESC, c.id DESC LIMIT ? OFFSET ?
            """, arguments: window.arguments + [limit, offset])
        return try rows.map { TrendingLink(card: try PreviewCard(row: $0), accounts: $0["trend_accounts"]) }
    }

    /// Public posts showing `cardId` and their distinct authors per UTC day since `start`, for
    /// the days it was shared.
    public func dailyUse(of cardId: Int64, since start: Date) throws -> [TagDayUse] {
        let window = Posts.madeSince(start)
        let rows = try Row.fetchAll(db, sql: """
            SELECT substr(p.created_at, 1, 10) AS day, COUNT(*) AS uses, COUNT(DISTINCT p.account_id) AS accounts
            FROM post_preview_cards pc JOIN posts p ON p.id = pc.post_id
            WHERE pc.preview_card_id = ? AND \(window.sql) AND p.visibility = 'public' GROUP BY day
            """, arguments: [cardId] + window.arguments)
        return rows.map { TagDayUse(day: $0["day"], uses: $0["uses"], accounts: $0["accounts"]) }
    }
}
