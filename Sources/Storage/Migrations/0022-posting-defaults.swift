extension Migrations {
    /// What a local account's new posts get when the app leaves it out (Mastodon's
    /// `source[privacy]`, `source[sensitive]` and `source[language]`). No row: public, not
    /// sensitive, no language.
    static let postingDefaultsSchema = [
        """
        CREATE TABLE posting_defaults (
          account_id INTEGER PRIMARY KEY NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          visibility TEXT NOT NULL,                  -- public, unlisted, private or direct
          sensitive BOOLEAN NOT NULL,
          language TEXT                              -- ISO 639-1, or none
        )
        """,
    ]
}
