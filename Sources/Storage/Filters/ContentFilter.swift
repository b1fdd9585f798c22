import Foundation
import GRDB

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
