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
}
