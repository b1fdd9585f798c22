import Foundation
import GRDB

/// A list of followed accounts made by `accountId` (Mastodon's `List`).
public struct UserList: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "lists"
    /// Snowflake id.
    public var id: Int64
    /// The owner.
    public var accountId: Int64
    /// Title.
    public var title: String
    /// Which replies the list timeline shows: `followed`, `list` or `none`.
    public var repliesPolicy: String
    /// Whether members' posts leave the owner's home timeline.
    public var exclusive: Bool
    /// When it was made.
    public var createdAt: Date

    /// Creates a list row.
    public init(id: Int64 = Snowflake.next(), accountId: Int64, title: String, repliesPolicy: String = "list", exclusive: Bool = false,
                createdAt: Date = Date()) {
        self.id = id
        self.accountId = accountId
        self.title = title
        self.repliesPolicy = repliesPolicy
        self.exclusive = exclusive
        self.createdAt = createdAt
    }
}

/// A content filter of `accountId` (Mastodon's `Filter`, v2).
public struct ContentFilter: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "filters"
    /// Snowflake id.
    public var id: Int64
    /// The owner.
    public var accountId: Int64
    /// Title.
    public var title: String
    /// Comma-separated contexts (`home`, `notifications`, `public`, `thread`, `account`).
    public var contexts: String
    /// `warn` or `hide`.
    public var action: String
    /// When it stops applying (`nil`: never).
    public var expiresAt: Date?
    /// When it was made.
    public var createdAt: Date

    /// Creates a filter row.
    public init(id: Int64 = Snowflake.next(), accountId: Int64, title: String, contexts: [String], action: String,
                expiresAt: Date?, createdAt: Date = Date()) {
        self.id = id
        self.accountId = accountId
        self.title = title
        self.contexts = contexts.joined(separator: ",")
        self.action = action
        self.expiresAt = expiresAt
        self.createdAt = createdAt
    }

    /// The contexts as a list.
    public var contextList: [String] { contexts.split(separator: ",").map(String.init) }
}

/// A keyword of a content filter.
public struct FilterKeyword: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "filter_keywords"
    /// Snowflake id.
    public var id: Int64
    /// The filter.
    public var filterId: Int64
    /// The word or phrase (matched ignoring case).
    public var keyword: String
    /// Whether it matches whole words only.
    public var wholeWord: Bool

    /// Creates a keyword row.
    public init(id: Int64 = Snowflake.next(), filterId: Int64, keyword: String, wholeWord: Bool) {
        self.id = id
        self.filterId = filterId
        self.keyword = keyword
        self.wholeWord = wholeWord
    }
}

/// A single post a content filter matches.
public struct FilterStatus: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "filter_statuses"
    /// Snowflake id.
    public var id: Int64
    /// The filter.
    public var filterId: Int64
    /// The post.
    public var postId: Int64

    /// Creates a filtered-post row.
    public init(id: Int64 = Snowflake.next(), filterId: Int64, postId: Int64) {
        self.id = id
        self.filterId = filterId
        self.postId = postId
    }
}

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
