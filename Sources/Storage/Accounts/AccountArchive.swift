import Foundation
import GRDB

extension Transaction {
    /// What an account's data export reads, and the files its deletion removes.
    public var accountArchive: AccountArchive { AccountArchive(db: session) }
}

/// What an account's data export reads (its relationships, posts, likes, bookmarks, photos)
/// and the media files its deletion removes.
public struct AccountArchive { let db: SQLSession }

extension AccountArchive {
    /// The accounts `accountId` follows (accepted or still requested), oldest follow first, at
    /// most `limit`.
    public func following(of accountId: Int64, limit: Int) throws -> [Account] {
        try Account.fetchAll(db, sql: """
            SELECT a.* FROM follows f JOIN accounts a ON a.id = f.target_account_id
            WHERE f.account_id = ? ORDER BY f.id LIMIT ?
            """, arguments: [accountId, limit])
    }

    /// The accounts that follow `accountId` (accepted), oldest follow first, at most `limit`.
    public func followers(of accountId: Int64, limit: Int) throws -> [Account] {
        try Account.fetchAll(db, sql: """
            SELECT a.* FROM follows f JOIN accounts a ON a.id = f.account_id
            WHERE f.target_account_id = ? AND f.state = 'accepted' ORDER BY f.id LIMIT ?
            """, arguments: [accountId, limit])
    }

    /// The accounts `accountId` blocks, oldest block first, at most `limit`.
    public func blocked(by accountId: Int64, limit: Int) throws -> [Account] {
        try Account.fetchAll(db, sql: """
            SELECT a.* FROM blocks b JOIN accounts a ON a.id = b.target_account_id
            WHERE b.account_id = ? ORDER BY b.id LIMIT ?
            """, arguments: [accountId, limit])
    }

    /// The accounts `accountId` mutes (mutes still in force at `now`), oldest mute first, each
    /// with whether the mute hides their notifications too; at most `limit`.
    public func muted(by accountId: Int64, now: Date = Date(), limit: Int) throws -> [(account: Account, hidesNotifications: Bool)] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT m.hide_notifications AS mute_hides, a.* FROM mutes m JOIN accounts a ON a.id = m.target_account_id
            WHERE m.account_id = ? AND (m.expires_at IS NULL OR m.expires_at > ?) ORDER BY m.id LIMIT ?
            """, arguments: [accountId, now, limit])
        return try rows.map { (try Account(row: $0), $0["mute_hides"]) }
    }

    /// The ActivityPub ids of the posts `accountId` bookmarked, oldest bookmark first.
    public func bookmarkedURIs(by accountId: Int64, limit: Int) throws -> [String] {
        try String.fetchAll(db, sql: """
            SELECT p.uri FROM bookmarks b JOIN posts p ON p.id = b.post_id WHERE b.account_id = ? ORDER BY b.id LIMIT ?
            """, arguments: [accountId, limit])
    }

    /// The ActivityPub ids of the posts `accountId` liked, oldest like first.
    public func likedURIs(by accountId: Int64, limit: Int) throws -> [String] {
        try String.fetchAll(db, sql: """
            SELECT p.uri FROM likes l JOIN posts p ON p.id = l.post_id WHERE l.account_id = ? ORDER BY l.id LIMIT ?
            """, arguments: [accountId, limit])
    }

    /// How many posts (not boosts) `accountId` wrote.
    public func postCount(of accountId: Int64) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM posts WHERE account_id = ? AND reblog_of_id IS NULL",
                         arguments: [accountId]) ?? 0
    }

    /// Up to `limit` posts (not boosts) of `accountId` with ids above `afterId`, oldest first
    /// (to walk all of them in batches).
    public func posts(of accountId: Int64, after afterId: Int64, limit: Int) throws -> [Post] {
        try Post.fetchAll(db, sql: """
            SELECT * FROM posts WHERE account_id = ? AND reblog_of_id IS NULL AND id > ? ORDER BY id LIMIT ?
            """, arguments: [accountId, afterId, limit])
    }

    /// The stored photos of `accountId`'s posts (local files only), in post order.
    public func postMedia(of accountId: Int64, limit: Int) throws -> [MediaAttachment] {
        try MediaAttachment.fetchAll(db, sql: """
            SELECT * FROM media_attachments WHERE account_id = ? AND post_id IS NOT NULL AND file_path IS NOT NULL
            ORDER BY post_id, position LIMIT ?
            """, arguments: [accountId, limit])
    }

    /// Every media file path that belongs to `accountId`: its attachments (attached or not),
    /// their thumbnails, and its avatar and header when stored here.
    public func ownedMediaPaths(of accountId: Int64) throws -> [String] {
        try String.fetchAll(db, sql: """
            SELECT file_path FROM media_attachments WHERE account_id = ?1 AND file_path IS NOT NULL
            UNION SELECT thumbnail_path FROM media_attachments WHERE account_id = ?1 AND thumbnail_path IS NOT NULL
            UNION SELECT avatar_url FROM accounts WHERE id = ?1 AND domain IS NULL AND avatar_url IS NOT NULL
            UNION SELECT header_url FROM accounts WHERE id = ?1 AND domain IS NULL AND header_url IS NOT NULL
            """, arguments: [accountId])
    }

    /// Delivery inboxes of the remote accounts `accountId` interacted with beyond follows:
    /// authors of posts it liked, replied to or boosted, accounts it mentioned or blocked. Their
    /// servers received its activities, so they know it. Shared inboxes collapse each node.
    public func interactedRemoteInboxes(of accountId: Int64) throws -> [String] {
        try String.fetchAll(db, sql: """
            SELECT DISTINCT COALESCE(a.shared_inbox_url, a.inbox_url) FROM accounts a
            WHERE a.domain IS NOT NULL AND COALESCE(a.shared_inbox_url, a.inbox_url) IS NOT NULL AND a.id IN (
              SELECT p.account_id FROM likes l JOIN posts p ON p.id = l.post_id WHERE l.account_id = ?1
              UNION SELECT in_reply_to_account_id FROM posts WHERE account_id = ?1 AND in_reply_to_account_id IS NOT NULL
              UNION SELECT o.account_id FROM posts b JOIN posts o ON o.id = b.reblog_of_id WHERE b.account_id = ?1
              UNION SELECT m.account_id FROM mentions m JOIN posts p ON p.id = m.post_id WHERE p.account_id = ?1
              UNION SELECT target_account_id FROM blocks WHERE account_id = ?1)
            """, arguments: [accountId])
    }
}
