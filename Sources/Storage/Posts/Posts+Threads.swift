import Foundation
import GRDB

/// What a remote post's origin reported for its collections, and when.
public struct OriginCounts: Sendable, Equatable {
    /// `replies.totalItems`, when the origin gave it.
    public var replies: Int?
    /// `shares.totalItems`.
    public var reblogs: Int?
    /// `likes.totalItems`.
    public var favourites: Int?

    /// Figures as read; `nil` for those the origin did not give.
    public init(replies: Int? = nil, reblogs: Int? = nil, favourites: Int? = nil) {
        self.replies = replies
        self.reblogs = reblogs
        self.favourites = favourites
    }
}

extension Posts {
    /// The post whose object id or web address is `text` (a post's page URL as people share it).
    public func find(uriOrURL text: String) throws -> Post? {
        try Post.filter(Column("uri") == text).fetchOne(db)
            ?? Post.filter(Column("url") == text && Column("reblog_of_id") == nil).fetchOne(db)
    }

    /// Links the stored replies that named `parent` by object id before it was known (a reply
    /// can arrive before its parent, which is then fetched) to it; the counters follow by trigger.
    /// - Returns: How many replies were linked.
    @discardableResult
    public func adoptReplies(of parent: Post) throws -> Int {
        try db.execute(cached: """
            UPDATE posts SET in_reply_to_id = ?, in_reply_to_account_id = ?
            WHERE in_reply_to_uri = ? AND in_reply_to_id IS NULL AND id != ?
            """, arguments: [parent.id, parent.accountId, parent.uri, parent.id])
        return db.changesCount
    }

    /// When the origin's figures of `postId` were last read, if ever.
    public func originCountsFetchedAt(of postId: Int64) throws -> Date? {
        try Date.fetchOne(db, sql: "SELECT fetched_at FROM post_origin_counts WHERE post_id = ?", arguments: [postId])
    }

    /// Records what the origin reported for `postId` at `date` (figures not given stay as they were).
    public func saveOriginCounts(_ counts: OriginCounts, of postId: Int64, at date: Date) throws {
        try db.execute(cached: """
            INSERT INTO post_origin_counts(post_id, replies_count, reblogs_count, favourites_count, fetched_at)
            VALUES (?, ?, ?, ?, ?)
            ON CONFLICT(post_id) DO UPDATE SET
              replies_count = COALESCE(excluded.replies_count, replies_count),
              reblogs_count = COALESCE(excluded.reblogs_count, reblogs_count),
              favourites_count = COALESCE(excluded.favourites_count, favourites_count),
              fetched_at = excluded.fetched_at
            """, arguments: [postId, counts.replies, counts.reblogs, counts.favourites, date])
    }
}
