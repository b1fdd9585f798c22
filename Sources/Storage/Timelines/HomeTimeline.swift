import GRDB

/// Home timelines, built by fan-out on write: a post gets one row per local reader when it is
/// stored, so reading a page is one index range, whatever the number of accounts followed.
public enum HomeTimeline {
    /// Adds `postId` to the home timeline of every local accepted follower of `authorId`
    /// (and of the author, when local), skipping readers in a block relation with the author.
    public static func fanOut(postId: Int64, authorId: Int64, includeAuthor: Bool, in db: SQLSession) throws {
        try db.execute(cached: """
            INSERT OR IGNORE INTO home_timeline(account_id, post_id, author_id)
            SELECT f.account_id, ?1, ?2 FROM follows f JOIN accounts a ON a.id = f.account_id
            WHERE f.target_account_id = ?2 AND f.state = 'accepted' AND a.domain IS NULL
              AND NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.account_id = f.account_id AND b.target_account_id = ?2)
                                                       OR (b.account_id = ?2 AND b.target_account_id = f.account_id))
            """, arguments: [postId, authorId])
        if includeAuthor { try add(postId: postId, authorId: authorId, readers: [authorId], in: db) }
    }

    /// Adds `postId` to the given local readers' timelines (mentions of direct posts).
    public static func add(postId: Int64, authorId: Int64, readers: [Int64], in db: SQLSession) throws {
        for reader in readers {
            try db.execute(cached: "INSERT OR IGNORE INTO home_timeline(account_id, post_id, author_id) VALUES (?, ?, ?)",
                           arguments: [reader, postId, authorId])
        }
    }

    /// Merges the newest `limit` posts and boosts `authorId` already has on this node into
    /// `readerId`'s timeline, by the rules of `fanOut` (and `add` for direct posts): nothing when
    /// either blocks the other, direct posts only where they mention the reader. The follow of
    /// `readerId` to `authorId` must be accepted; the caller writes it in the same transaction.
    public static func backfill(readerId: Int64, authorId: Int64, limit: Int, in db: SQLSession) throws {
        try db.execute(cached: """
            INSERT OR IGNORE INTO home_timeline(account_id, post_id, author_id)
            SELECT ?1, p.id, p.account_id FROM posts p
            WHERE p.account_id = ?2
              AND (p.visibility <> 'direct' OR EXISTS (SELECT 1 FROM mentions m WHERE m.post_id = p.id AND m.account_id = ?1))
              AND NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.account_id = ?1 AND b.target_account_id = ?2)
                                                       OR (b.account_id = ?2 AND b.target_account_id = ?1))
            ORDER BY p.id DESC LIMIT ?3
            """, arguments: [readerId, authorId, limit])
    }

    /// Removes everything `authorId` posted or boosted from `readerId`'s timeline (unfollow, block).
    public static func remove(authorId: Int64, from readerId: Int64, in db: SQLSession) throws {
        try db.execute(cached: "DELETE FROM home_timeline WHERE account_id = ? AND author_id = ?", arguments: [readerId, authorId])
    }

    /// One page of `readerId`'s timeline, newest first: posts with ids in (`sinceId`, `maxId`),
    /// or, with `minId`, the page just above it (Mastodon's pagination). One index range scan.
    public static func page(readerId: Int64, maxId: Int64? = nil, sinceId: Int64? = nil, minId: Int64? = nil, limit: Int = 20, in db: SQLSession) throws -> [Post] {
        if let minId {
            let ascending = try Post.fetchAll(db, sql: """
                SELECT p.* FROM home_timeline h JOIN posts p ON p.id = h.post_id
                WHERE h.account_id = ? AND h.post_id > ? AND h.post_id < ? ORDER BY h.post_id ASC LIMIT ?
                """, arguments: [readerId, minId, maxId ?? Int64.max, limit])
            return ascending.reversed()
        }
        return try Post.fetchAll(db, sql: """
            SELECT p.* FROM home_timeline h JOIN posts p ON p.id = h.post_id
            WHERE h.account_id = ? AND h.post_id < ? AND h.post_id > ? ORDER BY h.post_id DESC LIMIT ?
            """, arguments: [readerId, maxId ?? Int64.max, sinceId ?? 0, limit])
    }
}
