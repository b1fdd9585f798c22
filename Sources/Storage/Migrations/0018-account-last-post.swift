extension Migrations {
    /// `account_stats.last_post_id`: the account's newest post or boost, kept by triggers like
    /// the counters (a delete of the newest looks the next one up through `posts_by_account`),
    /// so the profile directory's "active" order reads an index instead of looking every
    /// account's newest post up and sorting them all (Mastodon keeps `last_status_at` there).
    static let lastPostSchema: [String] = [
        "ALTER TABLE account_stats ADD COLUMN last_post_id INTEGER",
        """
        CREATE TRIGGER posts_last_insert AFTER INSERT ON posts BEGIN
          \(addLastPost("NEW"))
        END
        """,
        """
        CREATE TRIGGER posts_last_delete AFTER DELETE ON posts BEGIN
          \(removeLastPost("OLD"))
        END
        """,
        """
        CREATE TRIGGER posts_last_update AFTER UPDATE OF account_id ON posts WHEN OLD.account_id IS NOT NEW.account_id BEGIN
          \(removeLastPost("OLD"))
          \(addLastPost("NEW"))
        END
        """,
        // What is already stored: accounts with a counter row, then those that only boosted.
        "UPDATE account_stats SET last_post_id = (SELECT MAX(p.id) FROM posts p WHERE p.account_id = account_stats.account_id)",
        """
        INSERT INTO account_stats(account_id, last_post_id)
        SELECT p.account_id, MAX(p.id) FROM posts p WHERE NOT EXISTS (SELECT 1 FROM account_stats s WHERE s.account_id = p.account_id)
        GROUP BY p.account_id
        """,
        "CREATE INDEX account_stats_by_last_post ON account_stats(last_post_id)",
    ]

    /// Trigger statement making the post `row` (NEW) its author's newest when it is newer.
    private static func addLastPost(_ row: String) -> String {
        """
        INSERT INTO account_stats(account_id, last_post_id) VALUES (\(row).account_id, \(row).id)
            ON CONFLICT(account_id) DO UPDATE SET last_post_id = MAX(IFNULL(last_post_id, 0), excluded.last_post_id);
        """
    }

    /// Trigger statement finding its author's newest post again when the post `row` (OLD) was it.
    private static func removeLastPost(_ row: String) -> String {
        """
        UPDATE account_stats SET last_post_id = (SELECT MAX(p.id) FROM posts p WHERE p.account_id = \(row).account_id)
            WHERE account_id = \(row).account_id AND last_post_id = \(row).id;
        """
    }
}
