import Core
import Storage

/// Which notifications a person is shown, in one place for the list, the single lookup and the
/// stream: those whose post they can still see (`PostVisibility`), and none from an account
/// they are in a block relation with, on a domain the node blocks, or mute with notifications.
public enum NotificationVisibility {
    /// Whether `item` is shown to its recipient.
    public static func isVisible(_ item: AccountNotification, in db: Transaction) throws -> Bool {
        try db.notifications.isVisible(item.id, to: item.accountId)
    }
}
