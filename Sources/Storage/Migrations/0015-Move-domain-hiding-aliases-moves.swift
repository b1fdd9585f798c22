extension Migrations {
    /// Per-person tools and account migration: the domains a person hides (Mastodon's
    /// `account_domain_blocks`), the other actors a local account says it also is
    /// (`alsoKnownAs`), and where an account (local or remote) moved to (`movedTo`).
    static let moveSchema = [
        """
        CREATE TABLE account_domain_blocks (
          id INTEGER PRIMARY KEY NOT NULL,            -- snowflake: orders the list, newest first
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          domain TEXT NOT NULL COLLATE NOCASE,        -- host[:port], as accounts.domain
          created_at DATETIME NOT NULL,
          UNIQUE (account_id, domain)
        )
        """,
        """
        CREATE TABLE account_aliases (
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          uri TEXT NOT NULL,                          -- an actor id this account also is
          created_at DATETIME NOT NULL,
          PRIMARY KEY (account_id, uri)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE account_moves (
          account_id INTEGER PRIMARY KEY NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,   -- who moved
          target_account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,        -- where to
          moved_at DATETIME NOT NULL
        )
        """,
        "CREATE INDEX account_moves_by_target ON account_moves(target_account_id)",
    ]
}
