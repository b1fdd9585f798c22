extension Migrations {
    /// Posts written to be published later (Mastodon's scheduled statuses): what the author
    /// asked for, and the uploads they keep from the media janitor until then.
    static let scheduledPostsSchema = [
        """
        CREATE TABLE scheduled_posts (
          id INTEGER PRIMARY KEY NOT NULL,                -- snowflake
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          scheduled_at DATETIME NOT NULL,                 -- when it is published
          params TEXT NOT NULL,                           -- JSON: text, visibility, warning, language, reply, poll
          created_at DATETIME NOT NULL
        )
        """,
        "CREATE INDEX scheduled_posts_by_time ON scheduled_posts(scheduled_at)",
        "CREATE INDEX scheduled_posts_by_account ON scheduled_posts(account_id, scheduled_at)",
        """
        CREATE TABLE scheduled_post_media (
          scheduled_post_id INTEGER NOT NULL REFERENCES scheduled_posts(id) ON DELETE CASCADE,
          media_id INTEGER NOT NULL REFERENCES media_attachments(id) ON DELETE CASCADE,
          position INTEGER NOT NULL,
          PRIMARY KEY (scheduled_post_id, media_id)
        ) WITHOUT ROWID
        """,
        "CREATE INDEX scheduled_post_media_by_media ON scheduled_post_media(media_id)",
    ]
}
