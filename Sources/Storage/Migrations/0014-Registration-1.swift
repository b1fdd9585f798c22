extension Migrations {
    /// Registration and federation policy: sign-up requests of approval mode (a row without
    /// `approved_at` is a pending account), invite links, the domains of allow-list federation,
    /// and moderators' notes on reports.
    static let registrationSchema = [
        """
        CREATE TABLE invites (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          code TEXT NOT NULL UNIQUE,
          account_id INTEGER REFERENCES accounts(id) ON DELETE SET NULL, -- who made it (NULL: the operator's CLI)
          max_uses INTEGER,                          -- NULL: unlimited
          uses INTEGER NOT NULL DEFAULT 0,
          expires_at DATETIME,                       -- NULL: never
          created_at DATETIME NOT NULL
        )
        """,
        """
        CREATE TABLE sign_up_requests (
          account_id INTEGER PRIMARY KEY NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          reason TEXT NOT NULL DEFAULT '',           -- why they want to join (approval mode)
          invite_id INTEGER REFERENCES invites(id) ON DELETE SET NULL,
          approved_at DATETIME,                      -- NULL: pending approval
          created_at DATETIME NOT NULL
        )
        """,
        "CREATE INDEX sign_up_requests_pending ON sign_up_requests(approved_at)",
        """
        CREATE TABLE domain_allows (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          domain TEXT NOT NULL UNIQUE COLLATE NOCASE,
          created_at DATETIME NOT NULL
        )
        """,
        """
        CREATE TABLE report_notes (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          report_id INTEGER NOT NULL REFERENCES reports(id) ON DELETE CASCADE,
          account_id INTEGER REFERENCES accounts(id) ON DELETE SET NULL, -- the moderator
          content TEXT NOT NULL,
          created_at DATETIME NOT NULL
        )
        """,
        "CREATE INDEX report_notes_by_report ON report_notes(report_id, id)",
    ]
}
