extension Migrations {
    /// What a reader curates: followed hashtags, lists of followed accounts, content filters
    /// (keywords and single posts), and direct-message conversations.
    static let listsSchema = followedTagTables + listTables + filterTables + conversationTables

    private static let followedTagTables = [
        """
        CREATE TABLE followed_tags (
          id INTEGER PRIMARY KEY NOT NULL,            -- snowflake, the page cursor
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          hashtag_id INTEGER NOT NULL REFERENCES hashtags(id) ON DELETE CASCADE,
          created_at DATETIME NOT NULL,
          UNIQUE (hashtag_id, account_id)
        )
        """,
        "CREATE INDEX followed_tags_by_account ON followed_tags(account_id, id)",
    ]

    private static let listTables = [
        """
        CREATE TABLE lists (
          id INTEGER PRIMARY KEY NOT NULL,
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          title TEXT NOT NULL,
          replies_policy TEXT NOT NULL DEFAULT 'list', -- followed, list, none
          exclusive BOOLEAN NOT NULL DEFAULT 0,        -- members' posts leave the home timeline
          created_at DATETIME NOT NULL
        )
        """,
        "CREATE INDEX lists_by_account ON lists(account_id, id)",
        """
        CREATE TABLE list_accounts (
          id INTEGER PRIMARY KEY NOT NULL,            -- snowflake, the page cursor
          list_id INTEGER NOT NULL REFERENCES lists(id) ON DELETE CASCADE,
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          UNIQUE (list_id, account_id)
        )
        """,
        "CREATE INDEX list_accounts_by_account ON list_accounts(account_id)",
        // Only followed accounts are list members: a follow that ends (unfollow, block,
        // rejection) takes the account out of the follower's lists, whichever path ended it.
        """
        CREATE TRIGGER follow_end_leaves_lists AFTER DELETE ON follows BEGIN
          DELETE FROM list_accounts WHERE account_id = OLD.target_account_id
            AND list_id IN (SELECT id FROM lists WHERE account_id = OLD.account_id);
        END
        """,
    ]

    private static let filterTables = [
        """
        CREATE TABLE filters (
          id INTEGER PRIMARY KEY NOT NULL,
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
          title TEXT NOT NULL,
          contexts TEXT NOT NULL,                     -- comma-separated: home,notifications,public,thread,account
          action TEXT NOT NULL DEFAULT 'warn',        -- warn, hide
          expires_at DATETIME,
          created_at DATETIME NOT NULL
        )
        """,
        "CREATE INDEX filters_by_account ON filters(account_id)",
        """
        CREATE TABLE filter_keywords (
          id INTEGER PRIMARY KEY NOT NULL,
          filter_id INTEGER NOT NULL REFERENCES filters(id) ON DELETE CASCADE,
          keyword TEXT NOT NULL,
          whole_word BOOLEAN NOT NULL DEFAULT 1
        )
        """,
        "CREATE INDEX filter_keywords_by_filter ON filter_keywords(filter_id)",
        """
        CREATE TABLE filter_statuses (
          id INTEGER PRIMARY KEY NOT NULL,
          filter_id INTEGER NOT NULL REFERENCES filters(id) ON DELETE CASCADE,
          post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
          UNIQUE (filter_id, post_id)
        )
        """,
    ]

    private static let conversationTables = [
        """
        CREATE TABLE conversations (
          id INTEGER PRIMARY KEY NOT NULL,
          account_id INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE, -- the local participant
          root_post_id INTEGER NOT NULL,              -- the thread's first known post (no key: it may go)
          participant_ids TEXT NOT NULL,              -- comma-separated ids of the others, ascending
          last_post_id INTEGER REFERENCES posts(id) ON DELETE SET NULL,
          unread BOOLEAN NOT NULL DEFAULT 0,
          UNIQUE (account_id, root_post_id)
        )
        """,
        "CREATE INDEX conversations_by_account ON conversations(account_id, last_post_id)",
    ]
}
