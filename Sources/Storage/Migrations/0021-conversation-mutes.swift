extension Migrations {
    /// Conversations people muted (Mastodon's "mute conversation"): notifications about posts of
    /// that thread stop, and the thread's posts render with `muted: true`. A mute names the
    /// topmost post of the thread known when it was made; any post below it is in the thread.
    static let conversationMutesSchema = [
        """
        CREATE TABLE conversation_mutes (
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,   -- who muted
          post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,         -- the thread's top post
          created_at DATETIME NOT NULL,
          PRIMARY KEY (account_id, post_id)
        ) WITHOUT ROWID
        """,
        "CREATE INDEX conversation_mutes_by_post ON conversation_mutes(post_id)",
    ]
}
