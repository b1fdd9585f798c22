import GRDB

extension Follows {
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

    /// One page of the accounts waiting for `accountId` to accept their follow request,
    /// newest request first, each with the request's id.
    public func requesters(of accountId: Int64, page: PageBounds) throws -> [PageItem<Account>] {
        try APIQuerySupport.relatedAccounts("""
            FROM follows r JOIN accounts a ON a.id = r.account_id WHERE r.target_account_id = ? AND r.state = 'pending'
            """, arguments: [accountId], page: page, db: db)
    }

    /// How many accepted followers (`followers`) or follows of `accountId` name a known
    /// account: the `totalItems` of its ActivityPub collection.
    public func collectionCount(of accountId: Int64, followers: Bool) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) \(Self.collection(followers: followers))", arguments: [accountId]) ?? 0
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
}

extension APIQuerySupport {
    /// One page of accounts from `relation`, an SQL `FROM ... WHERE ...` fragment over a
    /// relation row aliased `r` joined to `accounts a`, ordered by `r.id`, newest first, each
    /// with the relation row's id.
    static func relatedAccounts(_ relation: String, arguments: StatementArguments, page: PageBounds, db: Database) throws -> [PageItem<Account>] {
        let (bounds, boundArguments) = page.condition("r.id")
        let rows = try Row.fetchAll(db, sql: """
            SELECT r.id AS relation_id, a.* \(relation) AND \(bounds) ORDER BY \(page.order("r.id")) LIMIT ?
            """, arguments: arguments + StatementArguments(boundArguments) + [page.limit])
        return try page.newestFirst(rows).map { PageItem(cursor: $0["relation_id"], item: try Account(row: $0)) }
    }
}
