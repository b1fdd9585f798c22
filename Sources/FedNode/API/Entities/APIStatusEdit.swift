import Core

/// Mastodon's `StatusEdit` entity: one version of a post (docs.joinmastodon.org/entities/StatusEdit).
public struct APIStatusEdit: Codable, Sendable, Equatable {
    /// Caption as HTML in this version.
    public var content: String
    /// Content warning in this version.
    public var spoilerText: String
    /// Whether the media was sensitive in this version.
    public var sensitive: Bool
    /// When this version was published.
    public var createdAt: String
    /// The author.
    public var account: APIAccount
    /// Poll (none).
    @Nullable public var poll: APIEmpty?
    /// The attachments of this version.
    public var mediaAttachments: [APIMediaAttachment]
    /// Custom emoji (none).
    public var emojis: [APIEmoji]

    /// Creates the entity.
    public init(content: String, spoilerText: String, sensitive: Bool, createdAt: String, account: APIAccount,
                mediaAttachments: [APIMediaAttachment]) {
        self.content = content
        self.spoilerText = spoilerText
        self.sensitive = sensitive
        self.createdAt = createdAt
        self.account = account
        self.poll = nil
        self.mediaAttachments = mediaAttachments
        self.emojis = []
    }
}

/// Mastodon's `StatusSource` entity: what the author typed, for editing.
public struct APIStatusSource: Codable, Sendable, Equatable {
    /// The post's id.
    public var id: String
    /// Caption as typed.
    public var text: String
    /// Content warning.
    public var spoilerText: String
}
