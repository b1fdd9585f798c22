import GRDB

/// The counters of `account_stats` and `post_stats` counted again from the rows they summarise,
/// with the same rules as the triggers that keep them (see `Migrations/0006-v5-counters.swift`).
enum CounterRecount {
    /// `(id, followers, following, statuses, last_post)` of every account with a non-zero count
    /// or a post (`last_post`: its newest post's or boost's id).
    static let accounts = """
        SELECT id, SUM(followers) AS followers, SUM(following) AS following, SUM(statuses) AS statuses, MAX(last_post) AS last_post FROM (
          SELECT target_account_id AS id, 1 AS followers, 0 AS following, 0 AS statuses, CAST(NULL AS INTEGER) AS last_post FROM follows WHERE state = 'accepted'
          UNION ALL SELECT account_id, 0, 1, 0, CAST(NULL AS INTEGER) FROM follows WHERE state = 'accepted'
          UNION ALL SELECT account_id, 0, 0, CASE WHEN reblog_of_id IS NULL THEN 1 ELSE 0 END, id FROM posts)
        GROUP BY id
        """

    /// `(id, replies, reblogs, favourites)` of every post with a non-zero count.
    static let posts = """
        SELECT id, SUM(replies) AS replies, SUM(reblogs) AS reblogs, SUM(favourites) AS favourites FROM (
          SELECT in_reply_to_id AS id, 1 AS replies, 0 AS reblogs, 0 AS favourites FROM posts
            WHERE in_reply_to_id IS NOT NULL AND visibility IN ('public', 'unlisted')
          UNION ALL SELECT reblog_of_id, 0, 1, 0 FROM posts WHERE reblog_of_id IS NOT NULL
          UNION ALL SELECT post_id, 0, 0, 1 FROM likes)
        GROUP BY id
        """

    /// Every stored counter that differs from its recount (a missing row counts as zeros).
    static func mismatches(_ db: SQLSession) throws -> [CounterMismatch] {
        try compare(db, table: "account_stats", key: "account_id", recount: accounts, kind: .account,
                    columns: [("followers_count", "followers"), ("following_count", "following"), ("statuses_count", "statuses"),
                              ("last_post_id", "last_post")])
            + compare(db, table: "post_stats", key: "post_id", recount: posts, kind: .post,
                      columns: [("replies_count", "replies"), ("reblogs_count", "reblogs"), ("favourites_count", "favourites")])
    }

    /// Replaces every counter with its recount (after a bulk load that ran without the triggers).
    static func rebuild(_ db: SQLSession) throws {
        try db.execute(cached: "DELETE FROM account_stats")
        try db.execute(cached: "DELETE FROM post_stats")
        try db.execute(sql: "INSERT INTO account_stats(account_id, followers_count, following_count, statuses_count, last_post_id) \(accounts)")
        try db.execute(sql: "INSERT INTO post_stats(post_id, replies_count, reblogs_count, favourites_count) \(posts)")
    }

    private static func compare(_ db: SQLSession, table: String, key: String, recount: String, kind: CounterMismatch.Kind,
                                columns: [(stored: String, counted: String)]) throws -> [CounterMismatch] {
        let selected = columns.map { "IFNULL(s.\($0.stored), 0) AS s_\($0.counted), IFNULL(r.\($0.counted), 0) AS r_\($0.counted)" }
        let differs = columns.map { "IFNULL(s.\($0.stored), 0) <> IFNULL(r.\($0.counted), 0)" }
        let rows = try Row.fetchAll(db, sql: """
            WITH r AS (\(recount)), ids AS (SELECT id FROM r UNION SELECT \(key) FROM \(table))
            SELECT ids.id AS id, \(selected.joined(separator: ", "))
            FROM ids LEFT JOIN r ON r.id = ids.id LEFT JOIN \(table) s ON s.\(key) = ids.id
            WHERE \(differs.joined(separator: " OR ")) ORDER BY ids.id
            """)
        return rows.flatMap { row in
            columns.compactMap { column -> CounterMismatch? in
                let stored: Int = row["s_\(column.counted)"], counted: Int = row["r_\(column.counted)"]
                guard stored != counted else { return nil }
                return CounterMismatch(kind: kind, id: row["id"], counter: column.stored, stored: stored, counted: counted)
            }
        }
    }
}

/// A stored counter that disagrees with a recount of the rows it summarises.
public struct CounterMismatch: Sendable, Equatable, CustomStringConvertible {
    /// What a counter belongs to.
    public enum Kind: String, Sendable, Equatable {
        /// An account (`account_stats`).
        case account
        /// A post (`post_stats`).
        case post
    }

    /// Whether the counter is an account's or a post's.
    public var kind: Kind
    /// The account's or post's id.
    public var id: Int64
    /// The column, such as `followers_count`.
    public var counter: String
    /// The value stored.
    public var stored: Int
    /// The value counted from the rows.
    public var counted: Int

    /// One line for an operator: `account 123 followers_count: stored 4, counted 5`.
    public var description: String { "\(kind.rawValue) \(id) \(counter): stored \(stored), counted \(counted)" }
}
