import GRDB

extension Notifications {
    /// Stores a notification unless the same one (same dedupe key) exists already, so an event
    /// delivered twice notifies once.
    public func add(_ notification: AccountNotification) throws {
        try notification.insert(db, onConflict: .ignore)
    }

    /// Removes the favourite notifications `fromAccountId` caused by liking `postId` (an undone like).
    public func removeFavourite(from fromAccountId: Int64, post postId: Int64) throws {
        try db.execute(sql: "DELETE FROM notifications WHERE from_account_id = ? AND post_id = ? AND type = 'favourite'",
                       arguments: [fromAccountId, postId])
    }
}
