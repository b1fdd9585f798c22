import Core

/// Mastodon's `ScheduledStatus` entity: a post waiting to be published.
public struct APIScheduledStatus: Codable, Sendable, Equatable {
    /// Its id.
    public var id: String
    /// When it will be published.
    public var scheduledAt: String
    /// What it will be.
    public var params: Params
    /// Its photos.
    public var mediaAttachments: [APIMediaAttachment]

    /// The parameters the post was written with.
    public struct Params: Codable, Sendable, Equatable {
        /// Caption as typed.
        public var text: String
        /// Its poll.
        @Nullable public var poll: Poll?
        /// Its uploads' ids.
        @Nullable public var mediaIds: [String]?
        /// Whether the media is sensitive.
        @Nullable public var sensitive: Bool?
        /// Content warning.
        @Nullable public var spoilerText: String?
        /// Audience.
        @Nullable public var visibility: String?
        /// The post commented on.
        @Nullable public var inReplyToId: String?
        /// Language.
        @Nullable public var language: String?
        /// The app (none recorded).
        @Nullable public var applicationId: String?
        /// Always `null` here, as Mastodon sends it.
        @Nullable public var scheduledAt: String?
        /// The idempotency key (not kept).
        @Nullable public var idempotency: String?
        /// Whether rate limits applied.
        public var withRateLimit: Bool
    }

    /// A scheduled poll (`params.poll`).
    public struct Poll: Codable, Sendable, Equatable {
        /// The choices.
        public var options: [String]
        /// Seconds it stays open, as a string.
        public var expiresIn: String
        /// Whether several choices may be picked.
        public var multiple: Bool
        /// Whether the counts stay hidden until it ends.
        public var hideTotals: Bool
    }
}
