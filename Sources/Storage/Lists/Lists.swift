import Foundation
import GRDB

// Lists of followed accounts: the tables `lists` and `list_accounts`.

extension Transaction {
    /// Lists of followed accounts and their timelines.
    public var lists: Lists { Lists(db: session) }
}

/// Lists of followed accounts and their timelines.
public struct Lists { let db: SQLSession }

extension Lists {
    /// The lists of `accountId`, oldest first.
    public func all(of accountId: Int64) throws -> [UserList] {
        try UserList.filter(Column("account_id") == accountId).order(Column("id")).fetchAll(db)
    }

    /// The list `id` if `accountId` owns it.
    public func find(id: Int64, owner accountId: Int64) throws -> UserList? {
        try UserList.filter(Column("id") == id).filter(Column("account_id") == accountId).fetchOne(db)
    }

    /// Inserts or updates a list.
    public func save(_ list: UserList) throws { try list.save(db) }

    /// Deletes a list (its memberships go with it).
    public func delete(_ list: UserList) throws { _ = try list.delete(db) }

    /// Adds `accountIds` to `listId` (members already there are left as they are).
    public func add(_ accountIds: [Int64], to listId: Int64) throws {
        for accountId in accountIds {
            try db.execute(cached: "INSERT OR IGNORE INTO list_accounts(id, list_id, account_id) VALUES (?, ?, ?)",
                           arguments: [Snowflake.next(), listId, accountId])
        }
    }

    /// Removes `accountIds` from `listId`.
    public func remove(_ accountIds: [Int64], from listId: Int64) throws {
        for accountId in accountIds {
            try db.execute(cached: "DELETE FROM list_accounts WHERE list_id = ? AND account_id = ?", arguments: [listId, accountId])
        }
    }

    /// One page of the members of `listId`, newest membership first, each with the membership's
    /// id; with `limit` 0 in `page`, every member.
    public func members(of listId: Int64, page: PageBounds) throws -> [PageItem<Account>] {
        let (range, rangeArguments) = page.condition("m.id")
        let limit = page.limit > 0 ? page.limit : -1
        let rows = try Row.fetchAll(db, sql: """
            SELECT m.id AS member_id, a.* FROM list_accounts m JOIN accounts a ON a.id = m.account_id
            WHERE m.list_id = ? AND \(range) ORDER BY \(page.order("m.id")) LIMIT ?
            """, arguments: [listId] + StatementArguments(rangeArguments) + [limit])
        return try page.newestFirst(rows).map { PageItem(cursor: $0["member_id"], item: try Account(row: $0)) }
    }

    /// The lists of `ownerId` that have `memberId` as a member, oldest first.
    public func containing(_ memberId: Int64, owner ownerId: Int64) throws -> [UserList] {
        try UserList.fetchAll(db, sql: """
            SELECT l.* FROM lists l JOIN list_accounts m ON m.list_id = l.id WHERE l.account_id = ? AND m.account_id = ? ORDER BY l.id
            """, arguments: [ownerId, memberId])
    }

    /// Whether the timeline of `ownerId`'s list `listId` shows post `postId`: by a member, not
    /// direct, and kept by the list's replies policy (what the list stream sends).
    public func shows(post postId: Int64, in listId: Int64, owner ownerId: Int64) throws -> Bool {
        try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM posts p JOIN lists l ON l.id = ? AND l.account_id = ?
              WHERE p.id = ? AND p.account_id IN (SELECT account_id FROM list_accounts WHERE list_id = l.id)
              AND p.visibility <> 'direct' AND \(Self.repliesPolicyCondition))
            """, arguments: [listId, ownerId, postId]) ?? false
    }

    /// SQL condition on a home-timeline row `h` of reader `h.account_id`: its author is in none
    /// of the reader's exclusive lists (Mastodon keeps those members' posts off home).
    static let notExclusiveMember = """
        NOT EXISTS (SELECT 1 FROM list_accounts xm JOIN lists xl ON xl.id = xm.list_id
                    WHERE xl.account_id = h.account_id AND xl.exclusive = 1 AND xm.account_id = h.author_id)
        """

    /// SQL condition on a post `p` of list `l` (owner `l.account_id`) for its replies policy:
    /// `none` keeps no replies to others; `list` keeps replies to members or the owner;
    /// `followed` keeps replies to accounts the owner follows.
    static let repliesPolicyCondition = """
        (p.in_reply_to_account_id IS NULL OR p.in_reply_to_account_id = p.account_id
         OR (l.replies_policy = 'list' AND (p.in_reply_to_account_id = l.account_id
             OR EXISTS (SELECT 1 FROM list_accounts rm WHERE rm.list_id = l.id AND rm.account_id = p.in_reply_to_account_id)))
         OR (l.replies_policy = 'followed' AND (p.in_reply_to_account_id = l.account_id
             OR EXISTS (SELECT 1 FROM follows rf WHERE rf.account_id = l.account_id
                        AND rf.target_account_id = p.in_reply_to_account_id AND rf.state = 'accepted'))))
        """
}
