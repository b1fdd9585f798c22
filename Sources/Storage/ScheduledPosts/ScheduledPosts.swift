import Foundation
import GRDB

// Scheduled posts: the tables `scheduled_posts` and `scheduled_post_media`.

extension Transaction {
    /// Posts waiting to be published.
    public var scheduledPosts: ScheduledPosts { ScheduledPosts(db: session) }
}

/// Posts waiting to be published.
public struct ScheduledPosts { let db: SQLSession }

extension ScheduledPosts {
    /// Stores `post` with its uploads.
    public func insert(_ post: ScheduledPost) throws {
        try db.execute(cached: "INSERT INTO scheduled_posts(id, account_id, scheduled_at, params, created_at) VALUES (?, ?, ?, ?, ?)",
                       arguments: [post.id, post.accountId, post.scheduledAt, Self.json(post.params), post.createdAt])
        for (position, media) in post.mediaIds.enumerated() {
            try db.execute(cached: "INSERT INTO scheduled_post_media(scheduled_post_id, media_id, position) VALUES (?, ?, ?)",
                           arguments: [post.id, media, position])
        }
    }

    /// `accountId`'s scheduled post `id`.
    public func find(id: Int64, owner accountId: Int64) throws -> ScheduledPost? {
        try rows(sql: "SELECT id, account_id, scheduled_at, params, created_at FROM scheduled_posts WHERE id = ? AND account_id = ?",
                 arguments: [id, accountId]).first
    }

    /// One page of `accountId`'s scheduled posts, by id, newest first (as Mastodon pages them).
    public func page(of accountId: Int64, page: PageBounds) throws -> [ScheduledPost] {
        let (range, rangeArguments) = page.condition("id")
        return page.newestFirst(try rows(sql: """
            SELECT id, account_id, scheduled_at, params, created_at FROM scheduled_posts WHERE account_id = ? AND \(range)
            ORDER BY \(page.order("id")) LIMIT ?
            """, arguments: [accountId] + StatementArguments(rangeArguments) + [page.limit]))
    }

    /// How many posts `accountId` has scheduled, all told and on the day of `day` (UTC).
    public func counts(of accountId: Int64, onDayOf day: Date) throws -> (total: Int, sameDay: Int) {
        let start = Date(timeIntervalSince1970: (day.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
        let row = try Row.fetchOne(db, sql: """
            SELECT COUNT(*), COALESCE(SUM(CASE WHEN scheduled_at >= ? AND scheduled_at < ? THEN 1 ELSE 0 END), 0)
            FROM scheduled_posts WHERE account_id = ?
            """, arguments: [start, start.addingTimeInterval(86_400), accountId])
        return (row?[0] ?? 0, row?[1] ?? 0)
    }

    /// Moves scheduled post `id` to `date`.
    public func reschedule(_ id: Int64, to date: Date) throws {
        try db.execute(cached: "UPDATE scheduled_posts SET scheduled_at = ? WHERE id = ?", arguments: [date, id])
    }

    /// Deletes scheduled post `id` (its uploads stay, unattached).
    /// - Returns: Whether it was there.
    @discardableResult
    public func delete(_ id: Int64) throws -> Bool {
        try db.execute(cached: "DELETE FROM scheduled_posts WHERE id = ?", arguments: [id])
        return db.changesCount > 0
    }

    /// The scheduled posts due at `now`, soonest first.
    public func due(at now: Date, limit: Int) throws -> [ScheduledPost] {
        try rows(sql: """
            SELECT id, account_id, scheduled_at, params, created_at FROM scheduled_posts WHERE scheduled_at <= ? ORDER BY scheduled_at LIMIT ?
            """, arguments: [now, limit])
    }

    private func rows(sql: String, arguments: StatementArguments) throws -> [ScheduledPost] {
        let found = try Row.fetchAll(db, sql: sql, arguments: arguments).map { row -> ScheduledPost in
            let params = (try? JSONDecoder().decode(ScheduledPost.Params.self, from: Data((row[3] as String).utf8)))
                ?? ScheduledPost.Params(text: "")
            return ScheduledPost(id: row[0], accountId: row[1], scheduledAt: row[2], params: params, mediaIds: [], createdAt: row[4])
        }
        guard !found.isEmpty else { return [] }
        var media: [Int64: [Int64]] = [:]
        for (post, id) in try BatchQuery.rows(db, found.map(\.id), sql: """
            SELECT scheduled_post_id, media_id FROM scheduled_post_media WHERE scheduled_post_id IN (\(BatchQuery.ids))
            ORDER BY scheduled_post_id, position
            """, decode: { ($0[0] as Int64, $0[1] as Int64) }) {
            media[post, default: []].append(id)
        }
        return found.map { post in
            var post = post
            post.mediaIds = media[post.id] ?? []
            return post
        }
    }

    private static func json(_ params: ScheduledPost.Params) -> String {
        (try? JSONEncoder().encode(params)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
