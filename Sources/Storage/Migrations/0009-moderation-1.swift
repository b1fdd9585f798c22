extension Migrations {
    /// Moderation: staff roles, reports (from local users and from other servers' `Flag`s), and
    /// the instance's domain blocks with Mastodon's severities. `domain_blocks` stays the set of
    /// suspended domains that every federation path already enforces; a block of severity
    /// `suspend` keeps its row there, `silence` and `noop` do not.
    static let moderationSchema = [
        """
        CREATE TABLE account_roles (
          account_id INTEGER PRIMARY KEY NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          role TEXT NOT NULL                    -- owner, admin, moderator
        )
        """,
        """
        CREATE TABLE account_moderation (
          account_id INTEGER PRIMARY KEY NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          suspended_at DATETIME,
          silenced_at DATETIME,
          sensitized_at DATETIME,
          disabled_at DATETIME
        )
        """,
        """
        CREATE TABLE reports (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          target_account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          comment TEXT NOT NULL DEFAULT '',
          category TEXT NOT NULL DEFAULT 'other', -- spam, legal, violation, other
          rule_ids TEXT NOT NULL DEFAULT '',      -- comma-separated rule ids
          status_ids TEXT NOT NULL DEFAULT '',    -- comma-separated post ids
          forwarded INTEGER NOT NULL DEFAULT 0,
          uri TEXT UNIQUE,                        -- the Flag's id, for reports from other servers
          assigned_account_id INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
          action_taken_at DATETIME,
          action_taken_by_account_id INTEGER REFERENCES accounts(id) ON DELETE SET NULL,
          created_at DATETIME NOT NULL,
          updated_at DATETIME NOT NULL
        )
        """,
        "CREATE INDEX reports_by_target ON reports(target_account_id)",
        "CREATE INDEX reports_open ON reports(action_taken_at, id)",
        """
        CREATE TABLE instance_domain_blocks (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          domain TEXT NOT NULL UNIQUE COLLATE NOCASE,
          severity TEXT NOT NULL DEFAULT 'silence', -- silence, suspend, noop
          reject_media INTEGER NOT NULL DEFAULT 0,
          reject_reports INTEGER NOT NULL DEFAULT 0,
          private_comment TEXT NOT NULL DEFAULT '',
          public_comment TEXT NOT NULL DEFAULT '',
          obfuscate INTEGER NOT NULL DEFAULT 0,
          created_at DATETIME NOT NULL
        )
        """,
        """
        CREATE TABLE instance_rules (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          text TEXT NOT NULL,
          hint TEXT NOT NULL DEFAULT '',
          position INTEGER NOT NULL DEFAULT 0,
          created_at DATETIME NOT NULL
        )
        """,
        // Blocks made before severities existed (the CLI's) are suspensions.
        """
        INSERT INTO instance_domain_blocks (domain, severity, created_at)
        SELECT domain, 'suspend', created_at FROM domain_blocks
        """,
        // A block made or lifted by the CLI on the enforcement table is mirrored here, so both
        // ways of blocking show in the admin API.
        """
        CREATE TRIGGER domain_block_listed AFTER INSERT ON domain_blocks BEGIN
          INSERT INTO instance_domain_blocks (domain, severity, created_at) VALUES (NEW.domain, 'suspend', NEW.created_at)
          ON CONFLICT(domain) DO UPDATE SET severity = 'suspend';
        END
        """,
        """
        CREATE TRIGGER domain_block_unlisted AFTER DELETE ON domain_blocks BEGIN
          DELETE FROM instance_domain_blocks WHERE domain = OLD.domain AND severity = 'suspend';
        END
        """,
    ]
}
