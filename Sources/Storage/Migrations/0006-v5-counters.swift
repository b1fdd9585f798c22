import GRDB

// The counters shown on Mastodon's Account and Status entities, kept as Mastodon keeps them in
// account_stats and status_stats: one row per account or post in tables of their own (so a count
// changing never rewrites a wide `accounts` or `posts` row), kept exact by triggers, which run
// inside the statement that changes the counted rows and so commit or roll back with it.
//
// - followers_count / following_count: accepted follows only (a pending request is not counted).
// - statuses_count: posts that are not boosts, whatever their visibility.
// - replies_count: replies everyone may see (public, unlisted), so the number never reveals
//   followers-only or direct replies.
// - reblogs_count: boosts; favourites_count: likes.
//
// A row is created by the first change that adds to it (an upsert) and only updated by removals,
// so a removal never recreates the row of an account or post being deleted; rows go away with
// their account or post through the foreign key. A missing row means all counts are zero.
// Removals from `INSERT OR REPLACE` would bypass the delete triggers (recursive_triggers is off):
// follows, likes and posts are never written that way.
extension Migrations {
    /// Counter tables, their triggers, and the counts of the rows already stored.
    static let countersSchema: [String] = [
        """
        CREATE TABLE account_stats (
          account_id INTEGER PRIMARY KEY NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          followers_count INTEGER NOT NULL DEFAULT 0,
          following_count INTEGER NOT NULL DEFAULT 0,
          statuses_count INTEGER NOT NULL DEFAULT 0
        )
        """,
        """
        CREATE TABLE post_stats (
          post_id INTEGER PRIMARY KEY NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
          replies_count INTEGER NOT NULL DEFAULT 0,
          reblogs_count INTEGER NOT NULL DEFAULT 0,
          favourites_count INTEGER NOT NULL DEFAULT 0
        )
        """,
        // Follows: an accepted follow counts for both sides.
        """
        CREATE TRIGGER follows_counted_insert AFTER INSERT ON follows WHEN NEW.state = 'accepted' BEGIN
          \(addFollow("NEW"))
        END
        """,
        """
        CREATE TRIGGER follows_counted_delete AFTER DELETE ON follows WHEN OLD.state = 'accepted' BEGIN
          \(removeFollow("OLD"))
        END
        """,
        """
        CREATE TRIGGER follows_counted_update AFTER UPDATE OF state, account_id, target_account_id ON follows
        WHEN OLD.state IS NOT NEW.state OR OLD.account_id IS NOT NEW.account_id OR OLD.target_account_id IS NOT NEW.target_account_id
        BEGIN
          \(removeFollow("OLD", when: "OLD.state = 'accepted'"))
          \(addFollow("NEW", when: "NEW.state = 'accepted'"))
        END
        """,
        // Posts: the author's statuses, the boosted post's boosts, the parent's visible replies.
        """
        CREATE TRIGGER posts_counted_insert AFTER INSERT ON posts BEGIN
          \(addPost("NEW"))
        END
        """,
        """
        CREATE TRIGGER posts_counted_delete AFTER DELETE ON posts BEGIN
          \(removePost("OLD"))
        END
        """,
        """
        CREATE TRIGGER posts_counted_update AFTER UPDATE OF account_id, reblog_of_id, in_reply_to_id, visibility ON posts
        WHEN OLD.account_id IS NOT NEW.account_id OR OLD.reblog_of_id IS NOT NEW.reblog_of_id
          OR OLD.in_reply_to_id IS NOT NEW.in_reply_to_id OR OLD.visibility IS NOT NEW.visibility
        BEGIN
          \(removePost("OLD"))
          \(addPost("NEW"))
        END
        """,
        // Likes.
        """
        CREATE TRIGGER likes_counted_insert AFTER INSERT ON likes BEGIN
          INSERT INTO post_stats(post_id, favourites_count) VALUES (NEW.post_id, 1)
            ON CONFLICT(post_id) DO UPDATE SET favourites_count = favourites_count + 1;
        END
        """,
        """
        CREATE TRIGGER likes_counted_delete AFTER DELETE ON likes BEGIN
          UPDATE post_stats SET favourites_count = favourites_count - 1 WHERE post_id = OLD.post_id;
        END
        """,
        """
        CREATE TRIGGER likes_counted_update AFTER UPDATE OF post_id ON likes WHEN OLD.post_id IS NOT NEW.post_id BEGIN
          UPDATE post_stats SET favourites_count = favourites_count - 1 WHERE post_id = OLD.post_id;
          INSERT INTO post_stats(post_id, favourites_count) VALUES (NEW.post_id, 1)
            ON CONFLICT(post_id) DO UPDATE SET favourites_count = favourites_count + 1;
        END
        """,
        // The viewer's boosts among a page's posts (a rendered page asks which it boosted).
        "CREATE INDEX posts_boosts_by_account ON posts(account_id, reblog_of_id) WHERE reblog_of_id IS NOT NULL",
        // The counts of what is already stored.
        """
        INSERT INTO account_stats(account_id, followers_count, following_count, statuses_count)
        SELECT id, SUM(followers), SUM(following), SUM(statuses) FROM (
          SELECT target_account_id AS id, 1 AS followers, 0 AS following, 0 AS statuses FROM follows WHERE state = 'accepted'
          UNION ALL SELECT account_id, 0, 1, 0 FROM follows WHERE state = 'accepted'
          UNION ALL SELECT account_id, 0, 0, 1 FROM posts WHERE reblog_of_id IS NULL)
        GROUP BY id
        """,
        """
        INSERT INTO post_stats(post_id, replies_count, reblogs_count, favourites_count)
        SELECT id, SUM(replies), SUM(reblogs), SUM(favourites) FROM (
          SELECT in_reply_to_id AS id, 1 AS replies, 0 AS reblogs, 0 AS favourites FROM posts
            WHERE in_reply_to_id IS NOT NULL AND visibility IN ('public', 'unlisted')
          UNION ALL SELECT reblog_of_id, 0, 1, 0 FROM posts WHERE reblog_of_id IS NOT NULL
          UNION ALL SELECT post_id, 0, 0, 1 FROM likes)
        GROUP BY id
        """,
    ]

    /// Trigger statements adding the follow `row` (NEW) to both accounts' counts.
    private static func addFollow(_ row: String, when condition: String = "1") -> String {
        """
        INSERT INTO account_stats(account_id, following_count) SELECT \(row).account_id, 1 WHERE \(condition)
            ON CONFLICT(account_id) DO UPDATE SET following_count = following_count + 1;
          INSERT INTO account_stats(account_id, followers_count) SELECT \(row).target_account_id, 1 WHERE \(condition)
            ON CONFLICT(account_id) DO UPDATE SET followers_count = followers_count + 1;
        """
    }

    /// Trigger statements removing the follow `row` (OLD) from both accounts' counts.
    private static func removeFollow(_ row: String, when condition: String = "1") -> String {
        """
        UPDATE account_stats SET following_count = following_count - 1 WHERE account_id = \(row).account_id AND \(condition);
          UPDATE account_stats SET followers_count = followers_count - 1 WHERE account_id = \(row).target_account_id AND \(condition);
        """
    }

    /// Trigger statements adding the post `row` (NEW) to the counts it belongs to.
    private static func addPost(_ row: String) -> String {
        """
        INSERT INTO account_stats(account_id, statuses_count) SELECT \(row).account_id, 1 WHERE \(row).reblog_of_id IS NULL
            ON CONFLICT(account_id) DO UPDATE SET statuses_count = statuses_count + 1;
          INSERT INTO post_stats(post_id, reblogs_count) SELECT \(row).reblog_of_id, 1 WHERE \(row).reblog_of_id IS NOT NULL
            ON CONFLICT(post_id) DO UPDATE SET reblogs_count = reblogs_count + 1;
          INSERT INTO post_stats(post_id, replies_count) SELECT \(row).in_reply_to_id, 1
            WHERE \(row).in_reply_to_id IS NOT NULL AND \(row).visibility IN ('public', 'unlisted')
            ON CONFLICT(post_id) DO UPDATE SET replies_count = replies_count + 1;
        """
    }

    /// Trigger statements removing the post `row` (OLD) from the counts it belongs to.
    private static func removePost(_ row: String) -> String {
        """
        UPDATE account_stats SET statuses_count = statuses_count - 1 WHERE account_id = \(row).account_id AND \(row).reblog_of_id IS NULL;
          UPDATE post_stats SET reblogs_count = reblogs_count - 1 WHERE post_id = \(row).reblog_of_id;
          UPDATE post_stats SET replies_count = replies_count - 1
            WHERE post_id = \(row).in_reply_to_id AND \(row).visibility IN ('public', 'unlisted');
        """
    }
}
