import GRDB

extension FollowedTags {
    /// Adds the public post `postId` by `authorId` to the home timeline of every local account
    /// following one of its hashtags, except readers in a block relation with the author, and,
    /// when the author (or its domain) is silenced, readers who do not follow the author, as
    /// Mastodon limits silenced accounts. The timeline's key makes a reader who also follows
    /// the author get it once.
    public func fanOut(post postId: Int64, author authorId: Int64) throws {
        try db.execute(cached: """
            INSERT OR IGNORE INTO home_timeline(account_id, post_id, author_id)
            SELECT DISTINCT f.account_id, ?1, ?2 FROM post_hashtags ph JOIN followed_tags f ON f.hashtag_id = ph.hashtag_id
            WHERE ph.post_id = ?1 AND f.account_id <> ?2
              AND NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.account_id = f.account_id AND b.target_account_id = ?2)
                                                       OR (b.account_id = ?2 AND b.target_account_id = f.account_id))
              AND (NOT \(Self.silenced) OR EXISTS (SELECT 1 FROM follows sf WHERE sf.account_id = f.account_id
                                                   AND sf.target_account_id = ?2 AND sf.state = 'accepted'))
            """, arguments: [postId, authorId])
    }

    /// Whether the author `?2` or its domain is silenced.
    private static let silenced = """
        (EXISTS (SELECT 1 FROM account_moderation sm WHERE sm.account_id = ?2 AND sm.silenced_at IS NOT NULL)
         OR EXISTS (SELECT 1 FROM accounts sa JOIN instance_domain_blocks sd ON sd.domain = sa.domain AND sd.severity = 'silence'
                    WHERE sa.id = ?2))
        """
}
