extension Migrations {
    /// Sign-in guessing kept from locking the real person out: failed sign-ins per typed email
    /// with the back-off they earned (on every engine, so all processes of a node share them and
    /// moderators see them), and the browsers each account signed in from before.
    static let signInProtectionSchema = [
        """
        CREATE TABLE sign_in_failures (
          key TEXT PRIMARY KEY NOT NULL,              -- the email typed, trimmed and lowercased
          failures INTEGER NOT NULL,                  -- in a row, since the last success or quiet day
          last_failed_at DATETIME NOT NULL,
          last_address TEXT NOT NULL,                 -- the client address of the last failure
          locked_until DATETIME                       -- sign-ins refused until then (trusted browsers excepted)
        ) WITHOUT ROWID
        """,
        "CREATE INDEX sign_in_failures_by_time ON sign_in_failures(last_failed_at)",
        """
        CREATE TABLE trusted_devices (
          token_hash TEXT NOT NULL,                   -- SHA-256 of the browser's device cookie
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          last_used_at DATETIME NOT NULL,             -- its last successful sign-in
          failures INTEGER NOT NULL DEFAULT 0,        -- wrong passwords it sent past a lock since then
          PRIMARY KEY (token_hash, account_id)
        ) WITHOUT ROWID
        """,
        "CREATE INDEX trusted_devices_by_account ON trusted_devices(account_id, last_used_at)",
        "CREATE INDEX trusted_devices_by_use ON trusted_devices(last_used_at)",
    ]
}
