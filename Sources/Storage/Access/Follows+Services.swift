import GRDB

extension Follows {
    /// The pending follow requests to `targetId`.
    public func pendingRequests(to targetId: Int64) throws -> [Follow] {
        try Follow.filter(Column("target_account_id") == targetId && Column("state") == FollowState.pending).fetchAll(db)
    }

    /// The pending follow request from `requesterId` to `targetId`, if any.
    public func pendingRequest(from requesterId: Int64, to targetId: Int64) throws -> Follow? {
        try Follow.filter(Column("account_id") == requesterId && Column("target_account_id") == targetId
                          && Column("state") == FollowState.pending).fetchOne(db)
    }

    /// The ids of `accountId`'s accepted local followers.
    public func localFollowerIds(of accountId: Int64) throws -> [Int64] {
        try Int64.fetchAll(db, sql: """
            SELECT f.account_id FROM follows f JOIN accounts a ON a.id = f.account_id
            WHERE f.target_account_id = ? AND f.state = 'accepted' AND a.domain IS NULL
            """, arguments: [accountId])
    }

    /// How many accepted followers `accountId` has.
    public func followersCount(of accountId: Int64) throws -> Int { try Account.followersCount(of: accountId, in: db) }

    /// How many accounts `accountId` follows (accepted).
    public func followingCount(of accountId: Int64) throws -> Int { try Account.followingCount(of: accountId, in: db) }
}
