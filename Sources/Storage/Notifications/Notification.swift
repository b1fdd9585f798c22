import Foundation
import GRDB

/// Kinds of notification, with Mastodon's names.
public enum NotificationType: String, Codable, Sendable, CaseIterable, DatabaseValueConvertible {
    /// Someone followed you.
    case follow
    /// Someone asked to follow you.
    case followRequest = "follow_request"
    /// Someone liked your post.
    case favourite
    /// Someone mentioned you or commented on your post.
    case mention
    /// Someone boosted your post.
    case reblog
    /// Someone you get notified about posted.
    case status
    /// A post you interacted with was edited.
    case update
    /// Someone you follow moved to another account (and you now follow that one).
    case move
    /// A poll you voted in or made has ended.
    case poll
}

/// A notification for a local account.
public struct AccountNotification: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "notifications"
    /// Snowflake id.
    public var id: Int64
    /// The recipient.
    public var accountId: Int64
    /// Who caused it.
    public var fromAccountId: Int64
    /// What happened.
    public var type: NotificationType
    /// The post concerned, if any.
    public var postId: Int64?
    /// Unique per (recipient, type, actor, post): delivering the same event twice notifies once.
    public var dedupeKey: String
    /// When it happened.
    public var createdAt: Date

    /// Creates a notification; the dedupe key is derived from its parts.
    public init(id: Int64 = Snowflake.next(), accountId: Int64, fromAccountId: Int64, type: NotificationType, postId: Int64?, createdAt: Date = Date()) {
        self.id = id
        self.accountId = accountId
        self.fromAccountId = fromAccountId
        self.type = type
        self.postId = postId
        self.dedupeKey = "\(accountId):\(type.rawValue):\(fromAccountId):\(postId.map(String.init) ?? "-")"
        self.createdAt = createdAt
    }
}
