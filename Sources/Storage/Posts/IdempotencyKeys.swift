import Foundation
import GRDB

/// The `idempotency_keys` table: a client's `Idempotency-Key` on `POST /api/v1/statuses`
/// maps to the post it created, so a retried request returns that post instead of posting twice.
public enum IdempotencyKeys {
    /// How long a key is remembered (Mastodon keeps them for one hour).
    public static let lifetime: TimeInterval = 3600

    /// The post `accountId` created with `key` within the last `lifetime` before `now`, if it still exists.
    public static func post(key: String, accountId: Int64, now: Date = Date(), in db: SQLSession) throws -> Post? {
        try Post.fetchOne(db, sql: """
            SELECT p.* FROM idempotency_keys k JOIN posts p ON p.id = k.post_id
            WHERE k.account_id = ? AND k.key = ? AND k.created_at > ?
            """, arguments: [accountId, key, now.addingTimeInterval(-lifetime)])
    }

    /// Remembers that `key` of `accountId` created `postId`, replacing an expired entry.
    public static func record(key: String, accountId: Int64, postId: Int64, now: Date = Date(), in db: SQLSession) throws {
        try db.execute(cached: """
            INSERT OR REPLACE INTO idempotency_keys(account_id, key, post_id, created_at) VALUES (?, ?, ?, ?)
            """, arguments: [accountId, key, postId, now])
    }
}
