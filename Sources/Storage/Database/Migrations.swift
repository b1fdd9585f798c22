import GRDB

/// The schema's migrations. Once shipped, a migration never changes: add a new one instead.
/// Migrations use raw SQL only, never app types, so they stay valid as the records evolve.
enum Migrations {
    /// Every migration, in order: its identifier and its statements (SQLite's dialect; on
    /// PostgreSQL rewritten by `PostgresSchemaDialect`).
    static let all: [(identifier: String, statements: [String])] = [
        ("v1-initial-schema", initialSchema),
        ("v2-client-api", clientAPISchema),
        ("v-inbox-hardening", inboxHardeningSchema),
        ("v3-queue-hardening", queueHardeningSchema),
        ("v4-departed-actors", departedActorsSchema),
        ("v5-counters", countersSchema),
        ("fed-origin-counts", originCountsSchema),
        ("mail-tokens", mailSchema),
        ("moderation-1", moderationSchema),
        ("a-bookmarks-mutes-pins-edits-markers", curationSchema),
        ("b-curation", listsSchema),
        ("web-push", pushSchema),
        ("discovery-suggestion-dismissals", discoverySchema),
        ("Registration-1", registrationSchema),
        ("Move-domain-hiding-aliases-moves", moveSchema),
        ("processes-1", processesSchema),
        ("lookups-by-url", urlLookupSchema),
        ("account-last-post", lastPostSchema),
        ("account-notes", accountNotesSchema),
        ("sign-in-protection", signInProtectionSchema),
    ]

    /// Search and `authorize_interaction` look accounts and posts up by their web address as
    /// well as their id: without an index each such lookup read the whole table.
    private static let urlLookupSchema = [
        "CREATE INDEX accounts_by_url ON accounts(url)",
        "CREATE INDEX posts_by_url ON posts(url)",
    ]

    /// Every migration, in order, for SQLite.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for (identifier, statements) in all {
            migrator.registerMigration(identifier) { db in
                for statement in statements { try db.execute(sql: statement) }
            }
        }
        return migrator
    }

    // Times are stored as GRDB's default text ("YYYY-MM-DD HH:MM:SS.SSS", UTC) so they sort.
    // Ids are snowflakes (see `Snowflake`), so ORDER BY id is ORDER BY time.
    private static let initialSchema: [String] = accountTables + postTables + relationTables
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

    /// v2: what the client API and streaming need, and the delivery index by domain.
    private static let clientAPISchema = [
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

    /// Inbox hardening: de-duplication keyed by the sender's origin (one server cannot burn
    /// another's activity ids) with an index for pruning old rows, and queued deliveries to a
    /// domain dropped as soon as it (or a parent domain) is blocked, however the block is made.
    private static let inboxHardeningSchema = [
        """
        CREATE TABLE seen_activities_by_origin (
          origin TEXT NOT NULL COLLATE NOCASE,        -- host[:port] of the sender
          uri TEXT NOT NULL,                          -- the activity id, or sha256:... of an id-less body
          type TEXT,
          outcome TEXT,                               -- queued, processed, ignored, refused
          seen_at DATETIME NOT NULL,
          PRIMARY KEY (origin, uri)
        ) WITHOUT ROWID
        """,
        """
        INSERT INTO seen_activities_by_origin(origin, uri, type, outcome, seen_at)
        SELECT lower(CASE WHEN instr(substr(uri, instr(uri, '://') + 3), '/') > 0
                          THEN substr(substr(uri, instr(uri, '://') + 3), 1, instr(substr(uri, instr(uri, '://') + 3), '/') - 1)
                          ELSE substr(uri, instr(uri, '://') + 3) END),
               uri, type, outcome, seen_at
        FROM seen_activities
        """,
        "DROP TABLE seen_activities",
        "ALTER TABLE seen_activities_by_origin RENAME TO seen_activities",
        "CREATE INDEX seen_activities_by_age ON seen_activities(seen_at)",
        "CREATE INDEX seen_activities_by_uri ON seen_activities(uri)",
        // Deliveries already queued to a domain blocked before this migration.
        """
        DELETE FROM delivery_queue WHERE EXISTS (
          SELECT 1 FROM domain_blocks b
          WHERE lower(delivery_queue.domain) = lower(b.domain)
             OR lower(CASE WHEN instr(delivery_queue.domain, ':') > 0
                           THEN substr(delivery_queue.domain, 1, instr(delivery_queue.domain, ':') - 1)
                           ELSE delivery_queue.domain END) = lower(b.domain)
             OR substr(lower(CASE WHEN instr(delivery_queue.domain, ':') > 0
                                  THEN substr(delivery_queue.domain, 1, instr(delivery_queue.domain, ':') - 1)
                                  ELSE delivery_queue.domain END), -length(b.domain) - 1) = '.' || lower(b.domain))
        """,
        """
        CREATE TRIGGER domain_block_drops_deliveries AFTER INSERT ON domain_blocks BEGIN
          DELETE FROM delivery_queue
          WHERE lower(domain) = lower(NEW.domain)
             OR lower(CASE WHEN instr(domain, ':') > 0 THEN substr(domain, 1, instr(domain, ':') - 1) ELSE domain END)
                = lower(NEW.domain)
             OR substr(lower(CASE WHEN instr(domain, ':') > 0 THEN substr(domain, 1, instr(domain, ':') - 1) ELSE domain END),
                       -length(NEW.domain) - 1) = '.' || lower(NEW.domain);
        END
        """,
    ]

    // The inbox queue's crash accounting and fair scheduling.
    // - `unfinished_attempts` is raised, durably, before an item is handed to its handler and
    //   cleared when the attempt ends; an item that keeps killing the process therefore shows
    //   a growing count and is parked (`parked_at`) instead of being retried forever.
    // - `domain` is the sender's authority (host[:port], lowercased) derived from `actor_uri`,
    //   so the worker can cap the items in flight per domain with a plain SQL filter.
    private static let queueHardeningSchema = [
        "ALTER TABLE inbox_queue ADD COLUMN unfinished_attempts INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE inbox_queue ADD COLUMN parked_at DATETIME",
        """
        ALTER TABLE inbox_queue ADD COLUMN domain TEXT GENERATED ALWAYS AS (lower(substr(
          actor_uri, instr(actor_uri, '://') + 3,
          CASE WHEN instr(substr(actor_uri, instr(actor_uri, '://') + 3), '/') > 0
               THEN instr(substr(actor_uri, instr(actor_uri, '://') + 3), '/') - 1
               ELSE length(actor_uri) END))) VIRTUAL
        """,
        "CREATE INDEX inbox_queue_parked ON inbox_queue(parked_at) WHERE parked_at IS NOT NULL",
    ]

    // A deleted local account tells other servers with a signed `Delete` of its actor, which
    // needs its key after its row is gone: the key stays on the actor's tombstone (with the old
    // account id the deliveries name as signer) until its last delivery is done. Deliveries
    // therefore no longer cascade from the account row; the table is rebuilt without that
    // foreign key (SQLite cannot drop one), its indexes and the trigger naming it recreated.
    private static let departedActorsSchema = [
        "ALTER TABLE tombstones ADD COLUMN signer_id INTEGER",
        "ALTER TABLE tombstones ADD COLUMN key_id TEXT",
        "ALTER TABLE tombstones ADD COLUMN private_key_pem TEXT",
        "CREATE INDEX tombstones_by_signer ON tombstones(signer_id) WHERE signer_id IS NOT NULL",
        "DROP TRIGGER domain_block_drops_deliveries",
        """
        CREATE TABLE delivery_queue_unbound (
          id INTEGER PRIMARY KEY NOT NULL,
          activity_uri TEXT NOT NULL,
          account_id INTEGER NOT NULL, -- signer: a local account, or a deleted one keeping its key on its tombstone
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
        """
        INSERT INTO delivery_queue_unbound(id, activity_uri, account_id, inbox_url, domain, payload, attempts, next_attempt_at,
                                           last_status, last_error, created_at)
        SELECT id, activity_uri, account_id, inbox_url, domain, payload, attempts, next_attempt_at, last_status, last_error, created_at
        FROM delivery_queue
        """,
        "DROP TABLE delivery_queue",
        "ALTER TABLE delivery_queue_unbound RENAME TO delivery_queue",
        "CREATE INDEX delivery_queue_ready ON delivery_queue(next_attempt_at, id)",
        "CREATE INDEX delivery_queue_by_domain ON delivery_queue(domain, next_attempt_at)",
        "CREATE INDEX delivery_queue_by_signer ON delivery_queue(account_id)",
        """
        CREATE TRIGGER domain_block_drops_deliveries AFTER INSERT ON domain_blocks BEGIN
          DELETE FROM delivery_queue
          WHERE lower(domain) = lower(NEW.domain)
             OR lower(CASE WHEN instr(domain, ':') > 0 THEN substr(domain, 1, instr(domain, ':') - 1) ELSE domain END)
                = lower(NEW.domain)
             OR substr(lower(CASE WHEN instr(domain, ':') > 0 THEN substr(domain, 1, instr(domain, ':') - 1) ELSE domain END),
                       -length(NEW.domain) - 1) = '.' || lower(NEW.domain);
        END
        """,
    ]
}
