import Core
import Foundation

/// Mastodon's `List` entity (docs.joinmastodon.org/entities/List).
public struct APIList: Codable, Sendable, Equatable {
    /// Local id.
    public var id: String
    /// Title.
    public var title: String
    /// `followed`, `list` or `none`.
    public var repliesPolicy: String
    /// Whether members' posts are kept off the home timeline.
    public var exclusive: Bool
}

/// Mastodon's `Filter` entity, v2 (docs.joinmastodon.org/entities/Filter).
public struct APIFilter: Codable, Sendable, Equatable {
    /// Local id.
    public var id: String
    /// Title.
    public var title: String
    /// Where it applies: `home`, `notifications`, `public`, `thread`, `account`.
    public var context: [String]
    /// When it stops applying (ISO 8601), or `null`.
    @Nullable public var expiresAt: String?
    /// `warn` or `hide`.
    public var filterAction: String
    /// Its keywords.
    public var keywords: [APIFilterKeyword]
    /// Its single filtered posts.
    public var statuses: [APIFilterStatus]
}

/// Mastodon's `FilterKeyword` entity.
public struct APIFilterKeyword: Codable, Sendable, Equatable {
    /// Local id.
    public var id: String
    /// The word or phrase.
    public var keyword: String
    /// Whether it matches whole words only.
    public var wholeWord: Bool
}

/// Mastodon's `FilterStatus` entity.
public struct APIFilterStatus: Codable, Sendable, Equatable {
    /// Local id.
    public var id: String
    /// The filtered post's id.
    public var statusId: String
}

/// Mastodon's `FilterResult` entity: why a status matched a filter of the viewer.
public struct APIFilterResult: Codable, Sendable, Equatable {
    /// The filter that matched.
    public var filter: APIFilter
    /// The keywords that matched, or `null`.
    @Nullable public var keywordMatches: [String]?
    /// The post ids that matched, or `null`.
    @Nullable public var statusMatches: [String]?
}

/// Mastodon's `V1::Filter` entity: one keyword of a v2 filter, as Mastodon 4 shows it.
public struct APIFilterV1: Codable, Sendable, Equatable {
    /// The keyword's id.
    public var id: String
    /// The keyword.
    public var phrase: String
    /// The filter's contexts.
    public var context: [String]
    /// When the filter stops applying, or `null`.
    @Nullable public var expiresAt: String?
    /// Whether the filter hides (drops) matching posts.
    public var irreversible: Bool
    /// Whether it matches whole words only.
    public var wholeWord: Bool
}

/// Mastodon's `Conversation` entity (docs.joinmastodon.org/entities/Conversation).
public struct APIConversation: Codable, Sendable, Equatable {
    /// Local id.
    public var id: String
    /// Whether it has posts the viewer has not read.
    public var unread: Bool
    /// The participants other than the viewer.
    public var accounts: [APIAccount]
    /// The newest post, or `null`.
    @Nullable public var lastStatus: APIStatus?
}
