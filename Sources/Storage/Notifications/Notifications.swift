import Foundation
import GRDB

// Notifications of local accounts: the table `notifications`, and its grouped pages
// (Notifications+Groups).

extension Transaction {
    /// Notifications of local accounts.
    public var notifications: Notifications { Notifications(db: session) }
}

/// Notifications of local accounts.
public struct Notifications { let db: SQLSession }

extension Notifications {
    /// Stores a notification unless the same one (same dedupe key) exists already, so an event
    /// delivered twice notifies once, or it is about a post in a conversation the recipient
    /// muted (as Mastodon, whatever its type).
    public func add(_ notification: AccountNotification) throws {
        if let postId = notification.postId,
           try ConversationMutes(db: db).isMuted(postId, by: notification.accountId) { return }
        try notification.insert(db, onConflict: .ignore)
    }

    /// Removes the favourite notifications `fromAccountId` caused by liking `postId` (an undone like).
    public func removeFavourite(from fromAccountId: Int64, post postId: Int64) throws {
        try db.execute(cached: "DELETE FROM notifications WHERE from_account_id = ? AND post_id = ? AND type = 'favourite'",
                       arguments: [fromAccountId, postId])
    }

    /// The notification with this id.
    public func find(id: Int64) throws -> AccountNotification? { try AccountNotification.fetchOne(db, key: id) }

    /// Whether the notification `id` is shown to `recipient`: its post, if any, is one they can
    /// still see (`Posts.visibilityCondition`), and it comes from no account they are in a
    /// block relation with nor from a domain the node blocks or the recipient hides.
    public func isVisible(_ id: Int64, to recipient: Int64) throws -> Bool {
        let (sql, arguments) = Self.visibilityCondition(viewer: recipient)
        return try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM notifications n WHERE n.id = ? AND \(sql))",
                                 arguments: [id] + arguments) ?? false
    }

    /// One page of `recipient`'s shown notifications, newest first, filtered as
    /// `GET /api/v1/notifications` asks.
    /// - Parameters:
    ///   - types: Only these types (empty: all).
    ///   - excludedTypes: Never these types.
    ///   - from: Only those caused by this account.
    public func page(of recipient: Int64, types: [String], excluding excludedTypes: [String], from: Int64?, page: PageBounds) throws
        -> [AccountNotification]
    {
        let (sql, arguments) = Self.filter(viewer: recipient, types: types, excludedTypes: excludedTypes, from: from)
        let bounds = page.condition("n.id")
        let rows = try AccountNotification.fetchAll(db.cachedStatement(sql: """
            SELECT n.* FROM notifications n WHERE \(sql) AND \(bounds.sql) ORDER BY \(page.order("n.id")) LIMIT ?
            """), arguments: arguments + StatementArguments(bounds.arguments) + [page.limit])
        return page.newestFirst(rows)
    }

    /// How many of `recipient`'s shown notifications newer than `sinceId` match the filters of
    /// `page(of:...)`, counting at most `limit`.
    public func count(of recipient: Int64, types: [String], excluding excludedTypes: [String], from: Int64?, after sinceId: Int64? = nil,
                      limit: Int) throws -> Int {
        let (sql, arguments) = Self.filter(viewer: recipient, types: types, excludedTypes: excludedTypes, from: from)
        return try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM (SELECT 1 FROM notifications n WHERE \(sql) AND n.id > ? LIMIT ?)"),
                                arguments: arguments + [sinceId ?? 0, limit]) ?? 0
    }

    /// Deletes every notification of `recipient`.
    /// - Returns: How many were deleted.
    @discardableResult
    public func deleteAll(of recipient: Int64) throws -> Int {
        try AccountNotification.filter(Column("account_id") == recipient).deleteAll(db)
    }

    /// Deletes the notification `id` if it is `recipient`'s.
    /// - Returns: How many were deleted (0 or 1).
    @discardableResult
    public func delete(id: Int64, of recipient: Int64) throws -> Int {
        try AccountNotification.filter(Column("id") == id && Column("account_id") == recipient).deleteAll(db)
    }

    /// The condition on `notifications n` for `viewerId`'s shown notifications matching the filters.
    static func filter(viewer viewerId: Int64, types: [String], excludedTypes: [String], from accountId: Int64?)
        -> (String, StatementArguments)
    {
        let visible = visibilityCondition(viewer: viewerId)
        var parts = ["n.account_id = ?", visible.sql]
        var arguments: StatementArguments = [viewerId]
        arguments += visible.arguments
        // Each list is one JSON argument, so the SQL text depends only on which filters are
        // present and every variant is prepared once per connection (cached statements).
        if !types.isEmpty {
            parts.append("n.type IN (\(BatchQuery.strings))")
            arguments += [BatchQuery.json(types)]
        }
        if !excludedTypes.isEmpty {
            parts.append("n.type NOT IN (\(BatchQuery.strings))")
            arguments += [BatchQuery.json(excludedTypes)]
        }
        if let accountId {
            parts.append("n.from_account_id = ?")
            arguments += [accountId]
        }
        return (parts.joined(separator: " AND "), arguments)
    }

    /// An SQL condition on the notifications table aliased `n` that holds when `viewerId` is
    /// shown the row, with its arguments.
    static func visibilityCondition(viewer viewerId: Int64) -> (sql: String, arguments: StatementArguments) {
        let post = Posts.visibilityCondition("np", viewer: viewerId)
        let hidden = AccountDomainBlocks.notificationShownCondition(viewer: viewerId)
        let sql = """
            ((n.post_id IS NULL OR EXISTS (SELECT 1 FROM posts np WHERE np.id = n.post_id AND \(post.sql)))
             AND NOT EXISTS (SELECT 1 FROM blocks nb WHERE (nb.account_id = ? AND nb.target_account_id = n.from_account_id)
                  OR (nb.account_id = n.from_account_id AND nb.target_account_id = ?))
             AND NOT EXISTS (SELECT 1 FROM accounts na JOIN domain_blocks nd ON nd.domain = na.domain WHERE na.id = n.from_account_id)
             AND NOT EXISTS (SELECT 1 FROM mutes nm WHERE nm.account_id = ? AND nm.target_account_id = n.from_account_id
                  AND nm.hide_notifications = 1 AND (nm.expires_at IS NULL OR nm.expires_at > ?))
             AND \(hidden.sql))
            """
        return (sql, post.arguments + [viewerId, viewerId, viewerId, Date()] + hidden.arguments)
    }

    /// Removes the `reblog` notifications `fromAccountId` caused by boosting `postId`.
    public func removeReblog(from fromAccountId: Int64, post postId: Int64) throws {
        try db.execute(cached: "DELETE FROM notifications WHERE from_account_id = ? AND post_id = ? AND type = 'reblog'",
                       arguments: [fromAccountId, postId])
    }

    /// Removes `accountId`'s `follow_request` notifications about a request from `fromAccountId`.
    public func removeFollowRequest(to accountId: Int64, from fromAccountId: Int64) throws {
        try db.execute(cached: "DELETE FROM notifications WHERE account_id = ? AND from_account_id = ? AND type = 'follow_request'",
                       arguments: [accountId, fromAccountId])
    }
}
