import Foundation
import GRDB

/// The counts shown on an `Account` entity, as this node knows them.
public struct AccountEntityCounts: Sendable, Equatable {
    /// Accepted followers.
    public var followers: Int
    /// Accepted follows.
    public var following: Int
    /// Posts, boosts left out.
    public var statuses: Int
}

extension Accounts {
    /// The author of `post` (cached statement: asked for every rendered status).
    public func author(of post: Post) throws -> Account? {
        try Account.fetchOne(db.cachedStatement(sql: "SELECT * FROM accounts WHERE id = ?"), arguments: [post.accountId])
    }

    /// Accepted followers, accepted follows and posts of `accountId`, through cached
    /// statements (asked for every rendered account).
    public func entityCounts(of accountId: Int64) throws -> AccountEntityCounts {
        AccountEntityCounts(
            followers: try APIQuerySupport.cachedCount(db, "SELECT COUNT(*) FROM follows WHERE target_account_id = ? AND state = 'accepted'", accountId),
            following: try APIQuerySupport.cachedCount(db, "SELECT COUNT(*) FROM follows WHERE account_id = ? AND state = 'accepted'", accountId),
            statuses: try APIQuerySupport.cachedCount(db, "SELECT COUNT(*) FROM posts WHERE account_id = ? AND reblog_of_id IS NULL", accountId))
    }

    /// Whether an account with this id exists.
    public func exists(id: Int64) throws -> Bool { try Account.exists(db, key: id) }

    /// The tombstone left by the deleted local object (actor or post) whose id is `uri`.
    public func tombstone(uri: String) throws -> Tombstone? { try Tombstone.fetchOne(db, key: uri) }

    /// Notes a sign-in of `accountId` at `date` (NodeInfo counts accounts active by it).
    public func recordSignIn(of accountId: Int64, at date: Date) throws {
        try db.execute(sql: "UPDATE credentials SET last_sign_in_at = ? WHERE account_id = ?", arguments: [date, accountId])
    }
}
