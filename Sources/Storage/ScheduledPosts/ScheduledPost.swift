import Foundation

/// A post to be published at `scheduledAt` by `accountId`, as its author wrote it.
public struct ScheduledPost: Sendable, Equatable, Identifiable {
    /// What the post will be.
    public struct Params: Codable, Sendable, Equatable {
        /// Caption as typed.
        public var text: String
        /// Audience; `nil` for the author's default at publication.
        public var visibility: String?
        /// Content warning.
        public var spoilerText: String
        /// Whether the media is sensitive; `nil` for the author's default.
        public var sensitive: Bool?
        /// Language code; `nil` for the author's default.
        public var language: String?
        /// The post commented on.
        public var inReplyToId: Int64?
        /// The poll's choices, if it has one.
        public var pollOptions: [String]?
        /// Seconds the poll stays open once published.
        public var pollExpiresIn: Int?
        /// Whether several choices may be picked.
        public var pollMultiple: Bool?
        /// Whether the counts stay hidden until it ends.
        public var pollHideTotals: Bool?

        /// Parameters of a post with `text`.
        public init(text: String, visibility: String? = nil, spoilerText: String = "", sensitive: Bool? = nil, language: String? = nil,
                    inReplyToId: Int64? = nil) {
            self.text = text
            self.visibility = visibility
            self.spoilerText = spoilerText
            self.sensitive = sensitive
            self.language = language
            self.inReplyToId = inReplyToId
        }
    }

    /// Snowflake id (the client API's).
    public var id: Int64
    /// The author.
    public var accountId: Int64
    /// When it is published.
    public var scheduledAt: Date
    /// What it will be.
    public var params: Params
    /// Its uploads, in order.
    public var mediaIds: [Int64]
    /// When it was scheduled.
    public var createdAt: Date

    /// Creates a scheduled post.
    public init(id: Int64 = Snowflake.next(), accountId: Int64, scheduledAt: Date, params: Params, mediaIds: [Int64], createdAt: Date = Date()) {
        self.id = id
        self.accountId = accountId
        self.scheduledAt = scheduledAt
        self.params = params
        self.mediaIds = mediaIds
        self.createdAt = createdAt
    }
}
