import GRDB

extension Follows {
    /// The follow of `targetId` whose activity id is `uri` (the Follow an Accept or Reject from
    /// `targetId` answers).
    public func find(uri: String, target targetId: Int64) throws -> Follow? {
        try Follow.filter(Column("uri") == uri && Column("target_account_id") == targetId).fetchOne(db)
    }

    /// The follow made by `followerId` whose activity id is `uri` (the Follow an Undo names).
    public func find(follower followerId: Int64, uri: String) throws -> Follow? {
        try Follow.filter(Column("account_id") == followerId).filter(Column("uri") == uri).fetchOne(db)
    }

    /// Stores a follow: updates its row when it exists, inserts it otherwise.
    public func save(_ follow: Follow) throws { try follow.save(db) }

    /// Removes the follows (accepted or pending) between `a` and `b`, in both directions.
    public func deleteAll(between a: Int64, and b: Int64) throws {
        try Follow.filter((Column("account_id") == a && Column("target_account_id") == b)
                          || (Column("account_id") == b && Column("target_account_id") == a)).deleteAll(db)
    }

    /// Whether `followerId` follows `targetId` (accepted).
    public func isAccepted(follower followerId: Int64, target targetId: Int64) throws -> Bool {
        try Follow.filter(Column("account_id") == followerId && Column("target_account_id") == targetId
                          && Column("state") == FollowState.accepted)
            .fetchCount(db) > 0
    }

    /// Delivery inboxes of the remote accounts that follow `accountId` (accepted), shared
    /// inboxes collapsing each node, each inbox once.
    public func acceptedFollowerInboxes(of accountId: Int64) throws -> [String] {
        try String.fetchAll(db, sql: """
            SELECT DISTINCT COALESCE(a.shared_inbox_url, a.inbox_url) FROM follows f
            JOIN accounts a ON a.id = f.account_id
            WHERE f.target_account_id = ? AND f.state = 'accepted' AND a.domain IS NOT NULL
              AND COALESCE(a.shared_inbox_url, a.inbox_url) IS NOT NULL
            """, arguments: [accountId])
    }
}
