extension Migrations {
    /// Private notes people keep about other accounts (Mastodon's `account_notes`), shown to
    /// their writer only, in the relationship.
    static let accountNotesSchema = [
        """
        CREATE TABLE account_notes (
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,          -- the writer
          target_account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,   -- about whom
          comment TEXT NOT NULL,
          updated_at DATETIME NOT NULL,
          PRIMARY KEY (account_id, target_account_id)
        ) WITHOUT ROWID
        """,
        // Deleting an account (a remote actor's Delete) removes the notes about it.
        "CREATE INDEX account_notes_by_target ON account_notes(target_account_id)",
    ]
}
