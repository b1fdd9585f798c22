import Foundation
import GRDB

// Direct-message conversations: the table `conversations`.

extension Transaction {
    /// Direct-message conversations.
    public var conversations: Conversations { Conversations(db: session) }
}

/// Direct-message conversations.
public struct Conversations { let db: SQLSession }

extension Conversations {
    /// The first known post of the reply chain above `postId` (itself when it has no known parent).
    public func threadRoot(of postId: Int64) throws -> Int64 {
        try Int64.fetchOne(db, sql: """
            WITH RECURSIVE up(id, parent, depth) AS (
              SELECT id, in_reply_to_id, 0 FROM posts WHERE id = ?
              UNION ALL SELECT p.id, p.in_reply_to_id, up.depth + 1 FROM posts p JOIN up ON p.id = up.parent WHERE up.depth < 100
            )
            SELECT id FROM up ORDER BY depth DESC LIMIT 1
            """, arguments: [postId]) ?? postId
    }

    /// Records direct post `postId` in the conversation of `ownerId` about thread `rootId` with
    /// `others`: creates it, or moves its last post forward and sets its participants; `unread`
    /// marks it unread (a post by someone else) or read (the owner's own post).
    public func record(post postId: Int64, owner ownerId: Int64, root rootId: Int64, others: [Int64], unread: Bool) throws {
        let participants = Set(others).subtracting([ownerId]).sorted().map(String.init).joined(separator: ",")
        try db.execute(cached: """
            INSERT INTO conversations(id, account_id, root_post_id, participant_ids, last_post_id, unread) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(account_id, root_post_id) DO UPDATE SET participant_ids = excluded.participant_ids,
              last_post_id = MAX(IFNULL(last_post_id, 0), excluded.last_post_id), unread = excluded.unread
            """, arguments: [Snowflake.next(), ownerId, rootId, participants, postId, unread])
    }

    /// One page of `ownerId`'s conversations, most recently active first, each with its last
    /// post's id (the page cursor, as Mastodon pages conversations).
    public func page(of ownerId: Int64, page: PageBounds) throws -> [PageItem<Conversation>] {
        let (range, rangeArguments) = page.condition("last_post_id")
        let rows = try Conversation.fetchAll(db, sql: """
            SELECT * FROM conversations WHERE account_id = ? AND last_post_id IS NOT NULL AND \(range)
            ORDER BY \(page.order("last_post_id")) LIMIT ?
            """, arguments: [ownerId] + StatementArguments(rangeArguments) + [page.limit])
        return page.newestFirst(rows).compactMap { row in row.lastPostId.map { PageItem(cursor: $0, item: row) } }
    }

    /// The conversation `id` of `ownerId`.
    public func find(id: Int64, owner ownerId: Int64) throws -> Conversation? {
        try Conversation.filter(Column("id") == id).filter(Column("account_id") == ownerId).fetchOne(db)
    }

    /// The conversation of `ownerId` whose last post is `postId`, if any.
    public func find(lastPost postId: Int64, owner ownerId: Int64) throws -> Conversation? {
        try Conversation.filter(Column("last_post_id") == postId).filter(Column("account_id") == ownerId).fetchOne(db)
    }

    /// Marks a conversation read, or unread.
    public func mark(_ conversation: Conversation, unread: Bool) throws {
        try db.execute(cached: "UPDATE conversations SET unread = ? WHERE id = ?", arguments: [unread, conversation.id])
    }

    /// Removes a conversation from its owner's list (a later post brings it back).
    public func delete(_ conversation: Conversation) throws { _ = try conversation.delete(db) }
}
