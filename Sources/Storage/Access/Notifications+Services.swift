import GRDB

extension Notifications {
    /// Removes the `reblog` notifications `fromAccountId` caused by boosting `postId`.
    public func removeReblog(from fromAccountId: Int64, post postId: Int64) throws {
        try db.execute(sql: "DELETE FROM notifications WHERE from_account_id = ? AND post_id = ? AND type = 'reblog'",
                       arguments: [fromAccountId, postId])
    }

    /// Removes `accountId`'s `follow_request` notifications about a request from `fromAccountId`.
    public func removeFollowRequest(to accountId: Int64, from fromAccountId: Int64) throws {
        try db.execute(sql: "DELETE FROM notifications WHERE account_id = ? AND from_account_id = ? AND type = 'follow_request'",
                       arguments: [accountId, fromAccountId])
    }

    // MARK: Also declared, same signature and query, by the +API (find) and +Federation (add,
    // removeFavourite) files of the parallel refactors: keep one copy when merging.

    /// The notification with this id.
    public func find(id: Int64) throws -> AccountNotification? { try AccountNotification.fetchOne(db, key: id) }

    /// Stores a notification unless the same one (same dedupe key) exists already (`INSERT OR IGNORE`).
    public func add(_ notification: AccountNotification) throws {
        try notification.insert(db, onConflict: .ignore)
    }

    /// Removes the `favourite` notifications `fromAccountId` caused by liking `postId`.
    public func removeFavourite(from fromAccountId: Int64, post postId: Int64) throws {
        try db.execute(sql: "DELETE FROM notifications WHERE from_account_id = ? AND post_id = ? AND type = 'favourite'",
                       arguments: [fromAccountId, postId])
    }
}
