import GRDB

extension Timelines {
    /// Every post id in `readerId`'s home timeline, in no particular order (to draw cursors).
    public func homePostIds(of readerId: Int64) throws -> [Int64] {
        try Int64.fetchAll(db, sql: "SELECT post_id FROM home_timeline WHERE account_id = ?", arguments: [readerId])
    }

    /// SQLite's plan for one page of a home timeline, one line per step: shows the page is one
    /// index range scan.
    public func homePagePlan(of readerId: Int64, limit: Int) throws -> [String] {
        try Row.fetchAll(db, sql: """
            EXPLAIN QUERY PLAN SELECT p.* FROM home_timeline h JOIN posts p ON p.id = h.post_id
            WHERE h.account_id = ? AND h.post_id < ? AND h.post_id > ? ORDER BY h.post_id DESC LIMIT ?
            """, arguments: [readerId, Int64.max, 0, limit]).map { $0["detail"] as String }
    }

    /// The statement `timeRawHomeScans` times, for reports.
    public static let rawHomeScanSQL = "SELECT post_id FROM home_timeline WHERE account_id = ? AND post_id < ? ORDER BY post_id DESC LIMIT ?"

    /// Times `limit` post ids below each cursor read from the home-timeline index alone, with a
    /// prepared statement: the floor for a page. Each cursor is read twice; `clock` returns a
    /// monotonic time in nanoseconds.
    /// - Returns: The durations of the second pass, one per cursor.
    public func timeRawHomeScans(of readerId: Int64, cursors: [Int64?], limit: Int, clock: () -> UInt64) throws -> [UInt64] {
        let statement = try db.cachedStatement(sql: Self.rawHomeScanSQL)
        var samples: [UInt64] = []
        for cursor in cursors + cursors {
            let start = clock()
            _ = try Int64.fetchAll(statement, arguments: [readerId, cursor ?? Int64.max, limit])
            samples.append(clock() - start)
        }
        return Array(samples.suffix(cursors.count))
    }
}

extension Timelines {
    /// One page of `readerId`'s home timeline, newest first: posts with ids in (`sinceId`,
    /// `maxId`), or with `minId` the page just above it (Mastodon's pagination).
    public func home(of readerId: Int64, maxId: Int64? = nil, sinceId: Int64? = nil, minId: Int64? = nil, limit: Int = 20) throws -> [Post] {
        try HomeTimeline.page(readerId: readerId, maxId: maxId, sinceId: sinceId, minId: minId, limit: limit, in: db)
    }
}
