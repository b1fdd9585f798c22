import Foundation
import GRDB

/// A direct-message thread as one local participant sees it.
public struct Conversation: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "conversations"
    /// Snowflake id.
    public var id: Int64
    /// The local participant whose view this is.
    public var accountId: Int64
    /// The thread's first known post.
    public var rootPostId: Int64
    /// Comma-separated ids of the other participants, ascending.
    public var participantIds: String
    /// The newest post of the thread.
    public var lastPostId: Int64?
    /// Whether the owner has unread posts in it.
    public var unread: Bool

    /// The other participants' ids.
    public var participants: [Int64] { participantIds.split(separator: ",").compactMap { Int64($0) } }
}
