import Core
import Foundation

/// Mastodon's `Status` entity (docs.joinmastodon.org/entities/Status): a photo post, a comment
/// or a boost (with `reblog` set).
public struct APIStatus: Codable, Sendable, Equatable {
    /// Local id.
    public let id: String
    /// ActivityPub id.
    public let uri: String
    /// Web page.
    @Nullable public var url: String?
    /// Author.
    public let account: APIAccount
    /// Parent post id, for comments.
    @Nullable public var inReplyToId: String?
    /// Parent post's author id.
    @Nullable public var inReplyToAccountId: String?
    /// The boosted post, for boosts.
    @Nullable public var reblog: APIStatusBox?
    /// Caption as HTML.
    public let content: String
    /// Publication time (ISO 8601 with milliseconds).
    public let createdAt: String
    /// Last edit time.
    @Nullable public var editedAt: String?
    /// Custom emoji (none).
    public let emojis: [APIEmoji]
    /// Comments known here.
    public let repliesCount: Int
    /// Boosts known here.
    public let reblogsCount: Int
    /// Likes known here.
    public let favouritesCount: Int
    /// Whether the viewer boosted it (absent for anonymous viewers).
    public let reblogged: Bool?
    /// Whether the viewer liked it.
    public let favourited: Bool?
    /// Whether the viewer muted the conversation.
    public let muted: Bool?
    /// Whether the viewer bookmarked it.
    public let bookmarked: Bool?
    /// Whether pinned on the author's profile (present only for the author's own pinnable posts).
    public let pinned: Bool?
    /// Whether the media is sensitive.
    public let sensitive: Bool
    /// Content warning.
    public let spoilerText: String
    /// public, unlisted, private or direct.
    public let visibility: String
    /// Photos, in order.
    public let mediaAttachments: [APIMediaAttachment]
    /// Mentioned accounts.
    public let mentions: [APIMention]
    /// Hashtags.
    public let tags: [APITag]
    /// Link preview of the first linked page, once it was read.
    @Nullable public var card: APIPreviewCard?
    /// Its poll.
    @Nullable public var poll: APIPoll?
    /// The posting app, for the viewer's own posts.
    @Nullable public var application: APIApplication?
    /// Language code.
    @Nullable public var language: String?
    /// Source text, only when answering a delete (for "delete and redraft").
    public let text: String?
    /// The viewer's filters this status matches in the context it is shown in (signed-in viewers only).
    public var filtered: [APIFilterResult]? = nil

    /// Creates the entity.
    public init(id: String, uri: String, url: String?, account: APIAccount, inReplyToId: String?, inReplyToAccountId: String?,
                reblog: APIStatus?, content: String, createdAt: String, editedAt: String?, repliesCount: Int, reblogsCount: Int,
                favouritesCount: Int, viewer: ViewerState?, sensitive: Bool, spoilerText: String, visibility: String,
                mediaAttachments: [APIMediaAttachment], mentions: [APIMention], tags: [APITag], application: APIApplication?,
                language: String?, text: String? = nil) {
        self.id = id
        self.uri = uri
        self.url = url
        self.account = account
        self.inReplyToId = inReplyToId
        self.inReplyToAccountId = inReplyToAccountId
        self.reblog = reblog.map(APIStatusBox.init)
        self.content = content
        self.createdAt = createdAt
        self.editedAt = editedAt
        self.emojis = []
        self.repliesCount = repliesCount
        self.reblogsCount = reblogsCount
        self.favouritesCount = favouritesCount
        self.reblogged = viewer?.reblogged
        self.favourited = viewer?.favourited
        self.muted = viewer?.muted
        self.bookmarked = viewer?.bookmarked
        self.pinned = viewer?.pinned
        self.sensitive = sensitive
        self.spoilerText = spoilerText
        self.visibility = visibility
        self.mediaAttachments = mediaAttachments
        self.mentions = mentions
        self.tags = tags
        self.card = nil
        self.poll = nil
        self.application = application
        self.language = language
        self.text = text
    }

    /// The viewer's own relation to a post.
    public struct ViewerState: Sendable {
        /// Whether the viewer boosted it.
        public var reblogged: Bool
        /// Whether the viewer liked it.
        public var favourited: Bool
        /// Whether the viewer bookmarked it.
        public var bookmarked: Bool = false
        /// Whether the viewer muted its conversation.
        public var muted: Bool = false
        /// Whether it is pinned: only told to its author, for posts that may be pinned
        /// (`nil` leaves the field out, as Mastodon does for everyone else).
        public var pinned: Bool?
    }
}

/// Holds the boosted status inside a boost (a struct cannot contain itself).
public final class APIStatusBox: Codable, Sendable, Equatable {
    /// The boosted status.
    public let value: APIStatus

    /// Boxes `value`.
    public init(_ value: APIStatus) { self.value = value }

    /// Reads a status.
    public init(from decoder: any Decoder) throws { value = try APIStatus(from: decoder) }

    /// Writes the status itself, unboxed.
    public func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }

    /// Boxes are equal when their statuses are.
    public static func == (lhs: APIStatusBox, rhs: APIStatusBox) -> Bool { lhs.value == rhs.value }
}

/// A JSON value that is never present (cards and polls are always `null`).
public struct APIEmpty: Codable, Sendable, Equatable {}

/// A mentioned account (`Status.Mention`).
public struct APIMention: Codable, Sendable, Equatable {
    /// Local account id.
    public var id: String
    /// Local part.
    public var username: String
    /// Profile page.
    public var url: String
    /// Handle as `acct`.
    public var acct: String
}

/// A hashtag (`Tag`, `Status.Tag`).
public struct APITag: Codable, Sendable, Equatable {
    /// Name without `#`, lower-cased.
    public var name: String
    /// The tag's page.
    public var url: String
    /// Daily use (for `/api/v1/tags/:name` and search); days newest first.
    public var history: [APITagHistory]?
    /// Whether the viewer follows the tag (only for authenticated tag lookups).
    public var following: Bool?
}

/// One day of a tag's use.
public struct APITagHistory: Codable, Sendable, Equatable {
    /// Midnight UTC of the day, as a Unix timestamp string.
    public var day: String
    /// Posts that day.
    public var uses: String
    /// Distinct authors that day.
    public var accounts: String
}

/// The posting app (`Status.Application`, `Application`).
public struct APIApplication: Codable, Sendable, Equatable {
    /// Application name.
    public var name: String
    /// Application website.
    @Nullable public var website: String?
}

/// Mastodon's `Poll` entity (docs.joinmastodon.org/entities/Poll).
public struct APIPoll: Codable, Sendable, Equatable {
    /// The poll's id (its post's).
    public var id: String
    /// When voting ends.
    @Nullable public var expiresAt: String?
    /// Whether voting has ended.
    public var expired: Bool
    /// Whether several choices may be picked.
    public var multiple: Bool
    /// Votes cast.
    public var votesCount: Int
    /// People who voted, when known.
    @Nullable public var votersCount: Int?
    /// The choices.
    public var options: [Option]
    /// Custom emoji in the choices (none).
    public var emojis: [APIEmoji]
    /// Whether the viewer voted (signed-in viewers only).
    public var voted: Bool?
    /// The viewer's choices, by index (signed-in viewers only).
    public var ownVotes: [Int]?

    /// One choice (`Poll.Option`).
    public struct Option: Codable, Sendable, Equatable {
        /// The choice.
        public var title: String
        /// Its votes; `null` while the totals are hidden.
        @Nullable public var votesCount: Int?
    }
}
