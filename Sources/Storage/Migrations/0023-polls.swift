extension Migrations {
    /// Polls of posts, local and remote (`Question`), and the votes cast here or, on local
    /// polls, received from other servers.
    static let pollsSchema = [
        """
        CREATE TABLE polls (
          post_id INTEGER PRIMARY KEY NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
          options TEXT NOT NULL,                    -- JSON array of the choices, in order
          votes TEXT NOT NULL,                      -- JSON array of each choice's votes
          multiple BOOLEAN NOT NULL,                -- several choices may be picked
          hide_totals BOOLEAN NOT NULL DEFAULT 0,   -- counts hidden until it ends (local polls)
          voters_count INTEGER,                     -- people who voted, when known
          expires_at DATETIME,                      -- when voting ends
          closed_at DATETIME,                       -- when it was seen or told to have ended
          end_notified BOOLEAN NOT NULL DEFAULT 0,  -- its end was notified to its local voters
          updated_at DATETIME NOT NULL
        )
        """,
        "CREATE INDEX polls_to_end ON polls(expires_at) WHERE end_notified = 0",
        """
        CREATE TABLE poll_votes (
          post_id INTEGER NOT NULL REFERENCES polls(post_id) ON DELETE CASCADE,
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          choice INTEGER NOT NULL,                  -- index into the poll's options
          uri TEXT,                                 -- the vote's ActivityPub id (local votes: ours)
          created_at DATETIME NOT NULL,
          PRIMARY KEY (post_id, account_id, choice)
        ) WITHOUT ROWID
        """,
        "CREATE INDEX poll_votes_by_account ON poll_votes(account_id)",
    ]
}
