import Foundation
import GRDB

// Muted conversations: the table `conversation_mutes`. A thread is named by its topmost known
// post (`Conversations.threadRoot`); a post is in a muted thread when it or one of its
// ancestors (up to `maxDepth` steps up) is muted.

extension Transaction {
    /// Conversations people muted.
    public var conversationMutes: ConversationMutes { ConversationMutes(db: session) }
}

/// Conversations people muted.
public struct ConversationMutes { let db: SQLSession }

extension ConversationMutes {
    /// How far up a thread the queries walk: deeper replies than this count as their own thread.
    public static let maxDepth = 100

    /// Mutes the thread whose top post is `topId` for `accountId`; muting it again changes nothing.
    public func add(account accountId: Int64, top topId: Int64, at date: Date = Date()) throws {
        try db.execute(cached: """
            INSERT INTO conversation_mutes(account_id, post_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING
            """, arguments: [accountId, topId, date])
    }

    /// Lifts `accountId`'s mutes of the thread `postId` is in (of it and of its ancestors).
    public func remove(account accountId: Int64, thread postId: Int64) throws {
        try db.execute(cached: """
            WITH RECURSIVE up(id, parent, depth) AS (
              SELECT id, in_reply_to_id, 0 FROM posts WHERE id = ?2
              UNION ALL
              SELECT p.id, p.in_reply_to_id, up.depth + 1 FROM up JOIN posts p ON p.id = up.parent WHERE up.depth < ?3)
            DELETE FROM conversation_mutes WHERE account_id = ?1 AND post_id IN (SELECT id FROM up)
            """, arguments: [accountId, postId, Self.maxDepth])
    }

    /// Those of `ids` that are in threads `accountId` muted, in one statement (which stops at
    /// once for someone who muted none).
    public func muted(by accountId: Int64, among ids: some Collection<Int64>) throws -> Set<Int64> {
        try BatchQuery.idSet(db, ids, sql: """
            WITH RECURSIVE up(start, id, parent, depth) AS (
              SELECT p.id, p.id, p.in_reply_to_id, 0 FROM \(BatchQuery.idTable(3)) CROSS JOIN posts p
              WHERE p.id = \(BatchQuery.idValue) AND EXISTS (SELECT 1 FROM conversation_mutes WHERE account_id = ?1)
              UNION ALL
              SELECT up.start, p.id, p.in_reply_to_id, up.depth + 1 FROM up JOIN posts p ON p.id = up.parent WHERE up.depth < ?2)
            SELECT DISTINCT up.start FROM up JOIN conversation_mutes m ON m.account_id = ?1 AND m.post_id = up.id
            """, arguments: [accountId, Self.maxDepth])
    }

    /// Whether `postId` is in a thread `accountId` muted.
    public func isMuted(_ postId: Int64, by accountId: Int64) throws -> Bool {
        try !muted(by: accountId, among: [postId]).isEmpty
    }
}
