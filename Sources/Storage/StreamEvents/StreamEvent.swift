import Foundation
import GRDB

/// What a stream event records; written by the v2 triggers on `posts` and `notifications`.
public enum StreamEventKind: String, Codable, Sendable, DatabaseValueConvertible {
    /// A post (or boost) was stored.
    case post
    /// A post's caption or media was edited.
    case edit
    /// A post was deleted.
    case delete
    /// A notification was stored.
    case notification
}

/// One row of the streaming log: a change streaming clients may need to hear about, written in
/// the same transaction as the change, whichever code path made it.
public struct StreamEvent: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "stream_events"
    /// Increasing id: rows are read in this order.
    public var id: Int64
    /// What happened.
    public var kind: StreamEventKind
    /// The post concerned (post, edit, delete; the notification's post, if any).
    public var postId: Int64?
    /// The author (post, edit, delete) or the notified account (notification).
    public var accountId: Int64?
    /// The notification, for `notification` rows.
    public var notificationId: Int64?
    /// When the row was written.
    public var createdAt: Date
}

extension StreamEvent {
    /// Rows after `id`, oldest first, at most `limit`.
    public static func after(_ id: Int64, limit: Int, in db: SQLSession) throws -> [StreamEvent] {
        try StreamEvent.filter(Column("id") > id).order(Column("id")).limit(limit).fetchAll(db)
    }

    /// The id of the newest row, or 0 when the log is empty.
    public static func latestId(in db: SQLSession) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM stream_events") ?? 0
    }

    /// Deletes rows written before `date` whose id is at most `id` (already read).
    /// - Returns: The number of rows deleted.
    @discardableResult
    public static func prune(before date: Date, upTo id: Int64, in db: SQLSession) throws -> Int {
        try StreamEvent.filter(Column("created_at") < date && Column("id") <= id).deleteAll(db)
    }
}
