extension Migrations {
    // Times are stored as GRDB's default text ("YYYY-MM-DD HH:MM:SS.SSS", UTC) so they sort.
    // Ids are snowflakes (see `Snowflake`), so ORDER BY id is ORDER BY time.
    static let initialSchema: [String] = accountTables + postTables + relationTables
        + timelineTables + queueTables + oauthTables

    private static let accountTables = [
        """
        CREATE TABLE node_settings (
          key TEXT PRIMARY KEY NOT NULL,              -- domain, public_url
          value TEXT NOT NULL
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE accounts (
          id INTEGER PRIMARY KEY NOT NULL,
          username TEXT NOT NULL COLLATE NOCASE,
          domain TEXT COLLATE NOCASE,                 -- NULL for local accounts
          uri TEXT NOT NULL UNIQUE,                   -- the actor id
          url TEXT,                                   -- profile page
          display_name TEXT NOT NULL DEFAULT '',
          first_name TEXT NOT NULL DEFAULT '',
          last_name TEXT NOT NULL DEFAULT '',
          note TEXT NOT NULL DEFAULT '',              -- bio as HTML (sanitised for remote)
          note_source TEXT NOT NULL DEFAULT '',       -- bio as typed (local accounts)
          website TEXT NOT NULL DEFAULT '',
          fields TEXT NOT NULL DEFAULT '[]',          -- JSON [{name, value}] profile links
          avatar_url TEXT,
          header_url TEXT,
          locked BOOLEAN NOT NULL DEFAULT 0,          -- manually approves followers
          discoverable BOOLEAN NOT NULL DEFAULT 1,
          bot BOOLEAN NOT NULL DEFAULT 0,
          actor_type TEXT NOT NULL DEFAULT 'Person',
          inbox_url TEXT,
          shared_inbox_url TEXT,
          outbox_url TEXT,
          followers_url TEXT,
          following_url TEXT,
          public_key_id TEXT,
          public_key_pem TEXT,
          private_key_pem TEXT,                       -- local accounts only
          followers_count INTEGER NOT NULL DEFAULT 0, -- as the origin reports (remote)
          following_count INTEGER NOT NULL DEFAULT 0,
          statuses_count INTEGER NOT NULL DEFAULT 0,
          created_at DATETIME NOT NULL,
          updated_at DATETIME NOT NULL,
          fetched_at DATETIME                         -- last refresh from the origin (remote)
        )
        """,
        "CREATE UNIQUE INDEX accounts_by_handle ON accounts(username, IFNULL(domain, ''))",
        "CREATE INDEX accounts_by_domain ON accounts(domain)",
        "CREATE INDEX accounts_by_key_id ON accounts(public_key_id)",
        "CREATE INDEX accounts_by_display_name ON accounts(display_name COLLATE NOCASE)",
        """
        CREATE TABLE credentials (
          account_id INTEGER PRIMARY KEY NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          email TEXT NOT NULL UNIQUE COLLATE NOCASE,
          password_hash TEXT NOT NULL,
          created_at DATETIME NOT NULL,
          last_sign_in_at DATETIME
        )
        """,
    ]

    private static let postTables = [
        """
        CREATE TABLE posts (
          id INTEGER PRIMARY KEY NOT NULL,
          uri TEXT NOT NULL UNIQUE,
          url TEXT,
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          local BOOLEAN NOT NULL,
          in_reply_to_id INTEGER REFERENCES posts(id) ON DELETE SET NULL,
          in_reply_to_uri TEXT,
          in_reply_to_account_id INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
          reblog_of_id INTEGER REFERENCES posts(id) ON DELETE CASCADE,
          content TEXT NOT NULL DEFAULT '',           -- HTML
          text TEXT NOT NULL DEFAULT '',              -- source text (local posts)
          spoiler_text TEXT NOT NULL DEFAULT '',
          sensitive BOOLEAN NOT NULL DEFAULT 0,
          visibility TEXT NOT NULL DEFAULT 'public',  -- public, unlisted, private, direct
          language TEXT,
          created_at DATETIME NOT NULL,
          edited_at DATETIME,
          updated_at DATETIME NOT NULL
        )
        """,
        "CREATE INDEX posts_by_account ON posts(account_id, id)",
        "CREATE INDEX posts_by_parent ON posts(in_reply_to_id, id)",
        "CREATE INDEX posts_by_parent_uri ON posts(in_reply_to_uri)",
        "CREATE INDEX posts_by_reblog ON posts(reblog_of_id)",
        "CREATE INDEX posts_public ON posts(visibility, local, id)",
        """
        CREATE TABLE media_attachments (
          id INTEGER PRIMARY KEY NOT NULL,
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          post_id INTEGER REFERENCES posts(id) ON DELETE CASCADE,
          position INTEGER NOT NULL DEFAULT 0,
          type TEXT NOT NULL DEFAULT 'image',
          content_type TEXT,
          file_path TEXT,                             -- local file (uploads, cache)
          thumbnail_path TEXT,
          remote_url TEXT,                            -- the origin's URL (remote media)
          description TEXT NOT NULL DEFAULT '',
          focus_x REAL,
          focus_y REAL,
          width INTEGER,
          height INTEGER,
          blurhash TEXT,
          file_size INTEGER,
          created_at DATETIME NOT NULL
        )
        """,
        "CREATE INDEX media_by_post ON media_attachments(post_id, position)",
        "CREATE INDEX media_by_account ON media_attachments(account_id)",
        """
        CREATE TABLE hashtags (
          id INTEGER PRIMARY KEY NOT NULL,
          name TEXT NOT NULL UNIQUE COLLATE NOCASE,
          created_at DATETIME NOT NULL
        )
        """,
        """
        CREATE TABLE post_hashtags (
          post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
          hashtag_id INTEGER NOT NULL REFERENCES hashtags(id) ON DELETE CASCADE,
          PRIMARY KEY (hashtag_id, post_id)
        ) WITHOUT ROWID
        """,
        "CREATE INDEX post_hashtags_by_post ON post_hashtags(post_id)",
        """
        CREATE TABLE mentions (
          post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          PRIMARY KEY (post_id, account_id)
        ) WITHOUT ROWID
        """,
        "CREATE INDEX mentions_by_account ON mentions(account_id, post_id)",
        """
        CREATE TABLE tombstones (
          uri TEXT PRIMARY KEY NOT NULL,              -- ids of deleted objects, answered with 410
          account_id INTEGER REFERENCES accounts(id) ON DELETE CASCADE,
          deleted_at DATETIME NOT NULL
        ) WITHOUT ROWID
        """,
    ]

    private static let relationTables = [
        """
        CREATE TABLE follows (
          id INTEGER PRIMARY KEY NOT NULL,
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,        -- follower
          target_account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE, -- followed
          uri TEXT,                                   -- the Follow activity id
          state TEXT NOT NULL DEFAULT 'pending',      -- pending, accepted
          created_at DATETIME NOT NULL,
          UNIQUE (account_id, target_account_id)
        )
        """,
        "CREATE INDEX follows_by_target ON follows(target_account_id, state, id)",
        "CREATE INDEX follows_by_uri ON follows(uri)",
        """
        CREATE TABLE likes (
          id INTEGER PRIMARY KEY NOT NULL,
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
          uri TEXT,
          created_at DATETIME NOT NULL,
          UNIQUE (account_id, post_id)
        )
        """,
        "CREATE INDEX likes_by_post ON likes(post_id, id)",
        "CREATE INDEX likes_by_uri ON likes(uri)",
        """
        CREATE TABLE blocks (
          id INTEGER PRIMARY KEY NOT NULL,
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,        -- blocker
          target_account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE, -- blocked
          uri TEXT,
          created_at DATETIME NOT NULL,
          UNIQUE (account_id, target_account_id)
        )
        """,
        "CREATE INDEX blocks_by_target ON blocks(target_account_id)",
        """
        CREATE TABLE domain_blocks (
          domain TEXT PRIMARY KEY NOT NULL COLLATE NOCASE,
          created_at DATETIME NOT NULL
        ) WITHOUT ROWID
        """,
    ]

    private static let timelineTables = [
        """
        CREATE TABLE home_timeline (
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
          author_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          PRIMARY KEY (account_id, post_id)
        ) WITHOUT ROWID
        """,
        "CREATE INDEX home_timeline_by_author ON home_timeline(account_id, author_id)",
        "CREATE INDEX home_timeline_by_post ON home_timeline(post_id)",
        """
        CREATE TABLE notifications (
          id INTEGER PRIMARY KEY NOT NULL,
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,      -- recipient
          from_account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          type TEXT NOT NULL,     -- follow, follow_request, favourite, mention, reblog, status, update
          post_id INTEGER REFERENCES posts(id) ON DELETE CASCADE,
          dedupe_key TEXT NOT NULL UNIQUE,            -- makes handlers idempotent
          created_at DATETIME NOT NULL
        )
        """,
        "CREATE INDEX notifications_by_account ON notifications(account_id, id)",
        "CREATE INDEX notifications_by_post ON notifications(post_id)",
    ]

    private static let queueTables = [
        """
        CREATE TABLE inbox_queue (
          id INTEGER PRIMARY KEY NOT NULL,
          activity_id TEXT,
          actor_uri TEXT NOT NULL,
          recipient_account_id INTEGER REFERENCES accounts(id) ON DELETE CASCADE,
          payload BLOB NOT NULL,
          attempts INTEGER NOT NULL DEFAULT 0,
          available_at DATETIME NOT NULL,
          last_error TEXT,
          received_at DATETIME NOT NULL
        )
        """,
        "CREATE INDEX inbox_queue_ready ON inbox_queue(available_at, id)",
        """
        CREATE TABLE seen_activities (
          uri TEXT PRIMARY KEY NOT NULL,
          type TEXT,
          outcome TEXT,                               -- queued, processed, ignored, failed
          seen_at DATETIME NOT NULL
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE outbox_activities (
          id INTEGER PRIMARY KEY NOT NULL,
          uri TEXT NOT NULL UNIQUE,
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          type TEXT NOT NULL,
          post_id INTEGER REFERENCES posts(id) ON DELETE CASCADE,
          payload BLOB NOT NULL,
          created_at DATETIME NOT NULL
        )
        """,
        "CREATE INDEX outbox_by_account ON outbox_activities(account_id, id)",
        """
        CREATE TABLE delivery_queue (
          id INTEGER PRIMARY KEY NOT NULL,
          activity_uri TEXT NOT NULL,
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE, -- signer
          inbox_url TEXT NOT NULL,
          domain TEXT NOT NULL,
          payload BLOB NOT NULL,
          attempts INTEGER NOT NULL DEFAULT 0,
          next_attempt_at DATETIME NOT NULL,
          last_status INTEGER,
          last_error TEXT,
          created_at DATETIME NOT NULL,
          UNIQUE (activity_uri, inbox_url)
        )
        """,
        "CREATE INDEX delivery_queue_ready ON delivery_queue(next_attempt_at, id)",
        """
        CREATE TABLE delivery_domains (
          domain TEXT PRIMARY KEY NOT NULL COLLATE NOCASE,
          failing_since DATETIME,
          last_failure_at DATETIME,
          last_success_at DATETIME,
          unavailable BOOLEAN NOT NULL DEFAULT 0
        ) WITHOUT ROWID
        """,
    ]

    private static let oauthTables = [
        """
        CREATE TABLE oauth_apps (
          id INTEGER PRIMARY KEY NOT NULL,
          name TEXT NOT NULL,
          website TEXT,
          redirect_uris TEXT NOT NULL,                -- newline-separated
          scopes TEXT NOT NULL,
          client_id TEXT NOT NULL UNIQUE,
          client_secret TEXT NOT NULL,
          created_at DATETIME NOT NULL
        )
        """,
        """
        CREATE TABLE oauth_codes (
          code_hash TEXT PRIMARY KEY NOT NULL,
          app_id INTEGER NOT NULL REFERENCES oauth_apps(id) ON DELETE CASCADE,
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          redirect_uri TEXT NOT NULL,
          scopes TEXT NOT NULL,
          code_challenge TEXT,
          code_challenge_method TEXT,
          expires_at DATETIME NOT NULL
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE oauth_tokens (
          id INTEGER PRIMARY KEY NOT NULL,
          app_id INTEGER REFERENCES oauth_apps(id) ON DELETE CASCADE,
          account_id INTEGER REFERENCES accounts(id) ON DELETE CASCADE, -- NULL for client_credentials
          token_hash TEXT NOT NULL UNIQUE,            -- SHA-256 of the bearer token
          refresh_token_hash TEXT UNIQUE,
          scopes TEXT NOT NULL,
          created_at DATETIME NOT NULL,
          expires_at DATETIME,
          revoked_at DATETIME,
          last_used_at DATETIME
        )
        """,
        "CREATE INDEX oauth_tokens_by_account ON oauth_tokens(account_id)",
    ]
}
