import GRDB

/// The ids a benchmark pages through (`max_id` cursors), read from a generated node database:
/// what the client API's lists are ordered by, so each cursor names a real page.
public struct PageCursors: Sendable {
    private let queue: DatabaseQueue

    /// Opens the node database at `path` read-only.
    public init(path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        queue = try DatabaseQueue(path: path, configuration: configuration)
    }

    /// Ids of the posts in `readerId`'s home timeline.
    public func homePostIds(of readerId: Int64) throws -> [Int64] {
        try ids("SELECT post_id FROM home_timeline WHERE account_id = ?", [readerId])
    }

    /// Ids of `authorId`'s posts.
    public func postIds(by authorId: Int64) throws -> [Int64] {
        try ids("SELECT id FROM posts WHERE account_id = ?", [authorId])
    }

    /// Ids of the public posts.
    public func publicPostIds() throws -> [Int64] {
        try ids("SELECT id FROM posts WHERE visibility = 'public' AND reblog_of_id IS NULL", [])
    }

    /// Ids of the posts tagged `name`.
    public func postIds(tagged name: String) throws -> [Int64] {
        try ids("SELECT ph.post_id FROM post_hashtags ph JOIN hashtags h ON h.id = ph.hashtag_id WHERE h.name = ?", [name])
    }

    /// Ids of `accountId`'s notifications.
    public func notificationIds(of accountId: Int64) throws -> [Int64] {
        try ids("SELECT id FROM notifications WHERE account_id = ?", [accountId])
    }

    /// How many accepted followers `accountId` has, counted from the rows.
    public func followerCount(of accountId: Int64) throws -> Int {
        try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM follows WHERE target_account_id = ? AND state = 'accepted'", arguments: [accountId]) } ?? 0
    }

    private func ids(_ sql: String, _ arguments: StatementArguments) throws -> [Int64] {
        try queue.read { try Int64.fetchAll($0, sql: sql, arguments: arguments) }
    }
}
