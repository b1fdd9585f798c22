extension Migrations {
    /// Single-use secrets sent by email (password reset, email confirmation), stored hashed, and
    /// the accounts that signed up while confirmation was required and have not confirmed yet.
    static let mailSchema = [
        """
        CREATE TABLE account_tokens (
          token_hash TEXT PRIMARY KEY NOT NULL,
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          purpose TEXT NOT NULL,                -- reset_password, confirm_email
          email TEXT NOT NULL,                  -- the address the link was sent to
          expires_at DATETIME NOT NULL
        ) WITHOUT ROWID
        """,
        "CREATE INDEX account_tokens_by_account ON account_tokens(account_id, purpose)",
        """
        CREATE TABLE unconfirmed_accounts (
          account_id INTEGER PRIMARY KEY NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          since DATETIME NOT NULL
        )
        """,
    ]
}
