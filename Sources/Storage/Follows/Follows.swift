import GRDB

// Follow relations and follow requests: the table `follows`.

extension Transaction {
    /// Follow relations and follow requests.
    public var follows: Follows { Follows(db: session) }
}

/// Follow relations and follow requests.
public struct Follows { let db: SQLSession }

extension Follows {
    /// The follow (accepted or pending) from `follower` to `target`.
    public func find(follower: Int64, target: Int64) throws -> Follow? {
        // Raw SQL, prepared once per connection: asked for every relationship a page shows.
        try Follow.fetchOne(db, sql: "SELECT * FROM follows WHERE account_id = ? AND target_account_id = ?", arguments: [follower, target])
    }

    /// The follow whose activity id is `uri`.
    public func find(uri: String) throws -> Follow? { try Follow.filter(Column("uri") == uri).fetchOne(db) }

    /// Stores a new follow.
    public func insert(_ follow: Follow) throws { try follow.insert(db) }

    /// Stores every column of an existing follow.
    public func update(_ follow: Follow) throws { try follow.update(db) }

    /// Removes a follow.
    public func delete(_ follow: Follow) throws { try follow.delete(db) }

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

    /// Delivery inboxes of every remote account in a follow (accepted or pending, either way)
    /// with `accountId`: the servers that know it. Shared inboxes collapse each node; each once.
    public func relatedRemoteInboxes(of accountId: Int64) throws -> [String] {
        try String.fetchAll(db, sql: """
            SELECT DISTINCT COALESCE(a.shared_inbox_url, a.inbox_url) FROM follows f
            JOIN accounts a ON a.id = CASE WHEN f.account_id = ?1 THEN f.target_account_id ELSE f.account_id END
            WHERE (f.account_id = ?1 OR f.target_account_id = ?1) AND a.domain IS NOT NULL
              AND COALESCE(a.shared_inbox_url, a.inbox_url) IS NOT NULL
            """, arguments: [accountId])
    }

    /// How many follow requests wait for `accountId`'s approval.
    public func pendingRequestCount(to accountId: Int64) throws -> Int {
        try Follow.filter(Column("target_account_id") == accountId && Column("state") == FollowState.pending).fetchCount(db)
    }

    /// One page of `accountId`'s accepted followers, newest follow first, each with the
    /// follow's id.
    public func followers(of accountId: Int64, page: PageBounds) throws -> [PageItem<Account>] {
        try APIQuerySupport.relatedAccounts("""
            FROM follows r JOIN accounts a ON a.id = r.account_id WHERE r.target_account_id = ? AND r.state = 'accepted'
            """, arguments: [accountId], page: page, db: db)
    }

    /// One page of the accounts `accountId` follows (accepted), newest follow first, each
    /// with the follow's id.
    public func following(of accountId: Int64, page: PageBounds) throws -> [PageItem<Account>] {
        try APIQuerySupport.relatedAccounts("""
            FROM follows r JOIN accounts a ON a.id = r.target_account_id WHERE r.account_id = ? AND r.state = 'accepted'
            """, arguments: [accountId], page: page, db: db)
    }

    /// Up to `limit` of the accounts `viewerId` follows that follow `targetId` too (both follows
    /// accepted), the most recently followed by the viewer first: Mastodon's familiar followers.
    public func familiarFollowers(of targetId: Int64, viewer viewerId: Int64, limit: Int) throws -> [Account] {
        try Account.fetchAll(db.cachedStatement(sql: """
            SELECT a.* FROM follows mine
            JOIN follows f ON f.account_id = mine.target_account_id AND f.target_account_id = ? AND f.state = 'accepted'
            JOIN accounts a ON a.id = mine.target_account_id
            WHERE mine.account_id = ? AND mine.state = 'accepted' ORDER BY mine.id DESC LIMIT ?
            """), arguments: [targetId, viewerId, limit])
    }

    /// One page of the accounts waiting for `accountId` to accept their follow request,
    /// newest request first, each with the request's id.
    public func requesters(of accountId: Int64, page: PageBounds) throws -> [PageItem<Account>] {
        try APIQuerySupport.relatedAccounts("""
            FROM follows r JOIN accounts a ON a.id = r.account_id WHERE r.target_account_id = ? AND r.state = 'pending'
            """, arguments: [accountId], page: page, db: db)
    }

    /// How many accepted followers (`followers`) or follows of `accountId` name a known
    /// account: the `totalItems` of its ActivityPub collection, from the kept counters
    /// (`account_stats`), not a count of every follow on each request.
    public func collectionCount(of accountId: Int64, followers: Bool) throws -> Int {
        let counts = try Accounts(db: db).entityCounts(of: accountId)
        return followers ? counts.followers : counts.following
    }

    /// The actor ids of one numbered page of that collection, newest follow first.
    public func collectionURIs(of accountId: Int64, followers: Bool, limit: Int, offset: Int) throws -> [String] {
        try String.fetchAll(
            db, sql: "SELECT a.uri \(Self.collection(followers: followers)) ORDER BY f.id DESC LIMIT ? OFFSET ?",
            arguments: [accountId, limit, offset])
    }

    private static func collection(followers: Bool) -> String {
        followers
            ? "FROM follows f JOIN accounts a ON a.id = f.account_id WHERE f.target_account_id = ? AND f.state = 'accepted'"
            : "FROM follows f JOIN accounts a ON a.id = f.target_account_id WHERE f.account_id = ? AND f.state = 'accepted'"
    }

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
}

extension APIQuerySupport {
    /// One page of accounts from `relation`, an SQL `FROM ... WHERE ...` fragment over a
    /// relation row aliased `r` joined to `accounts a`, ordered by `r.id`, newest first, each
    /// with the relation row's id.
    static func relatedAccounts(_ relation: String, arguments: StatementArguments, page: PageBounds, db: SQLSession) throws -> [PageItem<Account>] {
        let (bounds, boundArguments) = page.condition("r.id")
        let rows = try Row.fetchAll(db, sql: """
            SELECT r.id AS relation_id, a.* \(relation) AND \(bounds) ORDER BY \(page.order("r.id")) LIMIT ?
            """, arguments: arguments + StatementArguments(boundArguments) + [page.limit])
        return try page.newestFirst(rows).map { PageItem(cursor: $0["relation_id"], item: try Account(row: $0)) }
    }
}
