import GRDB
import Storage

/// Which notifications a person is shown, in one place for the list, the single lookup and the
/// stream: those whose post they can still see (`PostVisibility`), and none from an account
/// they are in a block relation with or on a domain the node blocks.
public enum NotificationVisibility {
    /// An SQL condition on the notifications table aliased `n` that holds when `viewerId` is
    /// shown the row, with its arguments.
    public static func condition(viewer viewerId: Int64) -> (sql: String, arguments: StatementArguments) {
        let post = PostVisibility.condition("np", viewer: viewerId)
        let sql = """
            ((n.post_id IS NULL OR EXISTS (SELECT 1 FROM posts np WHERE np.id = n.post_id AND \(post.sql)))
             AND NOT EXISTS (SELECT 1 FROM blocks nb WHERE (nb.account_id = ? AND nb.target_account_id = n.from_account_id)
                  OR (nb.account_id = n.from_account_id AND nb.target_account_id = ?))
             AND NOT EXISTS (SELECT 1 FROM accounts na JOIN domain_blocks nd ON nd.domain = na.domain WHERE na.id = n.from_account_id))
            """
        return (sql, post.arguments + [viewerId, viewerId])
    }

    /// Whether `item` is shown to its recipient.
    public static func isVisible(_ item: AccountNotification, in db: Transaction) throws -> Bool {
        let (sql, arguments) = condition(viewer: item.accountId)
        return try Bool.fetchOne(db.grdb, sql: "SELECT EXISTS (SELECT 1 FROM notifications n WHERE n.id = ? AND \(sql))",
                                 arguments: [item.id] + arguments) ?? false
    }
}
