extension Migrations {
    /// Web Push: one subscription per access token (gone with the token), and a durable queue of
    /// pushes filled by a trigger in the same transaction as the notification, whichever path
    /// (API, inbox worker, CLI) inserted it, for each subscription whose alerts and policy want it.
    static let pushSchema = [
        """
        CREATE TABLE push_subscriptions (
          id INTEGER PRIMARY KEY NOT NULL,
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          token_id INTEGER NOT NULL UNIQUE REFERENCES oauth_tokens(id) ON DELETE CASCADE,
          access_token TEXT NOT NULL,           -- sent in the payload, as Mastodon does
          endpoint TEXT NOT NULL,
          p256dh TEXT NOT NULL,                 -- base64url, 65-byte uncompressed P-256 point
          auth TEXT NOT NULL,                   -- base64url, 16 bytes
          alerts TEXT NOT NULL DEFAULT ',',     -- enabled types between commas: ",mention,follow,"
          policy TEXT NOT NULL DEFAULT 'all',   -- all, followed, follower, none
          standard BOOLEAN NOT NULL DEFAULT 0,
          created_at DATETIME NOT NULL,
          updated_at DATETIME NOT NULL
        )
        """,
        "CREATE INDEX push_subscriptions_by_account ON push_subscriptions(account_id)",
        """
        CREATE TABLE push_deliveries (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          subscription_id INTEGER NOT NULL REFERENCES push_subscriptions(id) ON DELETE CASCADE,
          notification_id INTEGER NOT NULL REFERENCES notifications(id) ON DELETE CASCADE,
          attempts INTEGER NOT NULL DEFAULT 0,
          next_attempt_at DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now')),
          last_status INTEGER,
          last_error TEXT,
          created_at DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now')),
          UNIQUE (subscription_id, notification_id)
        )
        """,
        "CREATE INDEX push_deliveries_ready ON push_deliveries(next_attempt_at, id)",
        "CREATE INDEX push_deliveries_by_notification ON push_deliveries(notification_id)",
        """
        CREATE TRIGGER push_on_notification AFTER INSERT ON notifications BEGIN
          INSERT OR IGNORE INTO push_deliveries(subscription_id, notification_id)
          SELECT s.id, NEW.id FROM push_subscriptions s
          WHERE s.account_id = NEW.account_id
            AND instr(s.alerts, ',' || NEW.type || ',') > 0
            AND (s.policy = 'all'
              OR (s.policy = 'followed' AND EXISTS (SELECT 1 FROM follows f WHERE f.account_id = NEW.account_id
                    AND f.target_account_id = NEW.from_account_id AND f.state = 'accepted'))
              OR (s.policy = 'follower' AND EXISTS (SELECT 1 FROM follows f WHERE f.account_id = NEW.from_account_id
                    AND f.target_account_id = NEW.account_id AND f.state = 'accepted')));
        END
        """,
        """
        CREATE TRIGGER push_token_revoked AFTER UPDATE OF revoked_at ON oauth_tokens
        WHEN NEW.revoked_at IS NOT NULL BEGIN
          DELETE FROM push_subscriptions WHERE token_id = NEW.id;
        END
        """,
    ]
}
