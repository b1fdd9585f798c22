extension Migrations {
    /// What a person keeps for themselves or shows on their profile: bookmarks, mutes (with an
    /// optional end and whether notifications are hidden too), pinned posts (local pins, and
    /// remote accounts' pins as their `featured` collections announce them), the earlier
    /// versions of edited posts, and read markers of the home and notifications timelines.
    static let curationSchema = [
        """
        CREATE TABLE bookmarks (
          id INTEGER PRIMARY KEY NOT NULL,            -- snowflake: orders the list, newest first
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
          created_at DATETIME NOT NULL,
          UNIQUE (account_id, post_id)
        )
        """,
        "CREATE INDEX bookmarks_by_post ON bookmarks(post_id)",
        """
        CREATE TABLE mutes (
          id INTEGER PRIMARY KEY NOT NULL,
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,        -- who mutes
          target_account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE, -- who is muted
          hide_notifications BOOLEAN NOT NULL DEFAULT 1,
          expires_at DATETIME,                        -- NULL: until unmuted
          created_at DATETIME NOT NULL,
          UNIQUE (account_id, target_account_id)
        )
        """,
        "CREATE INDEX mutes_by_expiry ON mutes(expires_at) WHERE expires_at IS NOT NULL",
        """
        CREATE TABLE pins (
          id INTEGER PRIMARY KEY NOT NULL,
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
          created_at DATETIME NOT NULL,
          UNIQUE (account_id, post_id)
        )
        """,
        "CREATE INDEX pins_by_post ON pins(post_id)",
        // A remote actor's `featured` collection, as its actor document names it: Add/Remove
        // naming another target are not applied. Kept apart from `accounts` so that table and
        // its record stay as they are.
        """
        CREATE TABLE featured_collections (
          account_id INTEGER PRIMARY KEY NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          url TEXT NOT NULL
        )
        """,
        """
        CREATE TABLE post_edits (
          id INTEGER PRIMARY KEY NOT NULL,
          post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
          content TEXT NOT NULL DEFAULT '',
          spoiler_text TEXT NOT NULL DEFAULT '',
          sensitive BOOLEAN NOT NULL DEFAULT 0,
          media TEXT NOT NULL DEFAULT '[]',           -- the attachments as they were (JSON)
          created_at DATETIME NOT NULL                -- when this version was published
        )
        """,
        "CREATE INDEX post_edits_by_post ON post_edits(post_id, id)",
        """
        CREATE TABLE markers (
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          timeline TEXT NOT NULL,                     -- home, notifications
          last_read_id TEXT NOT NULL,
          version INTEGER NOT NULL DEFAULT 1,
          updated_at DATETIME NOT NULL,
          PRIMARY KEY (account_id, timeline)
        ) WITHOUT ROWID
        """,
    ]
}
