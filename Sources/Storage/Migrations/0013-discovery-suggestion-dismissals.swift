import GRDB

extension Migrations {
    /// Suggestions a person dismissed (`DELETE /api/v1/suggestions/:account_id`), never offered
    /// to them again; link preview cards (one per URL, shared by the posts linking it); and an
    /// index on post time for the trends' recent windows.
    static let discoverySchema = [
        """
        CREATE TABLE suggestion_dismissals (
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,        -- who dismissed
          target_account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE, -- who was dismissed
          created_at DATETIME NOT NULL,
          PRIMARY KEY (account_id, target_account_id)
        ) WITHOUT ROWID
        """,
        "CREATE INDEX posts_by_time ON posts(created_at)",
        """
        CREATE TABLE preview_cards (
          id INTEGER PRIMARY KEY NOT NULL,
          url TEXT NOT NULL UNIQUE,                   -- the link as posted
          title TEXT NOT NULL DEFAULT '',
          description TEXT NOT NULL DEFAULT '',
          type TEXT NOT NULL DEFAULT 'link',          -- link, photo, video
          author_name TEXT NOT NULL DEFAULT '',
          provider_name TEXT NOT NULL DEFAULT '',
          image_url TEXT,                             -- the page's og:image, as given
          width INTEGER NOT NULL DEFAULT 0,
          height INTEGER NOT NULL DEFAULT 0,
          created_at DATETIME NOT NULL
        )
        """,
        """
        CREATE TABLE post_preview_cards (
          post_id INTEGER PRIMARY KEY NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
          preview_card_id INTEGER NOT NULL REFERENCES preview_cards(id) ON DELETE CASCADE
        )
        """,
        "CREATE INDEX post_preview_cards_by_card ON post_preview_cards(preview_card_id)",
    ]
}
