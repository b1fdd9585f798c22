extension Migrations {
    /// v2: what the client API and streaming need, and the delivery index by domain.
    static let clientAPISchema = [
        // The delivery worker skips and probes whole domains.
        "CREATE INDEX delivery_queue_by_domain ON delivery_queue(domain, next_attempt_at)",
        // `Idempotency-Key` on POST /api/v1/statuses: the same key returns the same post.
        """
        CREATE TABLE idempotency_keys (
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          key TEXT NOT NULL,
          post_id INTEGER REFERENCES posts(id) ON DELETE CASCADE,
          created_at DATETIME NOT NULL,
          PRIMARY KEY (account_id, key)
        ) WITHOUT ROWID
        """,
        // Streaming reads this log; triggers fill it in the same transaction as the change,
        // whichever path (API, inbox worker, CLI) made it. Pruned by the streaming service.
        """
        CREATE TABLE stream_events (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          kind TEXT NOT NULL,                         -- post, edit, delete, notification
          post_id INTEGER,                            -- post, edit, delete
          account_id INTEGER,                         -- the author, or the notified account
          notification_id INTEGER,
          created_at DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now'))
        )
        """,
        """
        CREATE TRIGGER stream_post_created AFTER INSERT ON posts BEGIN
          INSERT INTO stream_events(kind, post_id, account_id) VALUES ('post', NEW.id, NEW.account_id);
        END
        """,
        """
        CREATE TRIGGER stream_post_edited AFTER UPDATE OF edited_at ON posts
        WHEN NEW.edited_at IS NOT NULL AND NEW.edited_at IS NOT OLD.edited_at BEGIN
          INSERT INTO stream_events(kind, post_id, account_id) VALUES ('edit', NEW.id, NEW.account_id);
        END
        """,
        """
        CREATE TRIGGER stream_post_deleted AFTER DELETE ON posts BEGIN
          INSERT INTO stream_events(kind, post_id, account_id) VALUES ('delete', OLD.id, OLD.account_id);
        END
        """,
        """
        CREATE TRIGGER stream_notification AFTER INSERT ON notifications BEGIN
          INSERT INTO stream_events(kind, account_id, notification_id, post_id) VALUES ('notification', NEW.account_id, NEW.id, NEW.post_id);
        END
        """,
        // Media thumbnails (own size, the origin's preview URL) and search/profile indexes.
        "ALTER TABLE media_attachments ADD COLUMN preview_remote_url TEXT",
        "ALTER TABLE media_attachments ADD COLUMN thumbnail_width INTEGER",
        "ALTER TABLE media_attachments ADD COLUMN thumbnail_height INTEGER",
        "CREATE INDEX posts_by_account_media ON posts(account_id, in_reply_to_id, id)",
        "CREATE INDEX accounts_by_username ON accounts(username COLLATE NOCASE)",
        "CREATE INDEX hashtags_by_name ON hashtags(name COLLATE NOCASE)",
    ]
}
