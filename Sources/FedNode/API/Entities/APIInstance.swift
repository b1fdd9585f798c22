import Core

/// The v2 `Instance` entity (`GET /api/v2/instance`).
public struct APIInstance: Codable, Sendable, Equatable {
    /// The domain.
    public var domain: String
    /// Node name.
    public var title: String
    /// Mastodon-compatible version string.
    public var version: String
    /// Where the source code is.
    public var sourceUrl: String
    /// Short description.
    public var description: String
    /// Active users.
    public var usage: Usage
    /// Banner image.
    public var thumbnail: Thumbnail
    /// App icons (none).
    public var icon: [Icon]
    /// ISO 639 codes of the node's languages.
    public var languages: [String]
    /// Limits and URLs.
    public var configuration: APIInstanceConfiguration
    /// Sign-up.
    public var registrations: Registrations
    /// Versions of the API the node speaks.
    public var apiVersions: [String: Int]
    /// Who runs the node.
    public var contact: Contact
    /// Server rules.
    public var rules: [APIRule]

    /// `usage`.
    public struct Usage: Codable, Sendable, Equatable {
        /// `usage.users`.
        public struct Users: Codable, Sendable, Equatable {
            /// Local accounts active in the last 30 days.
            public var activeMonth: Int
        }
        /// Users.
        public var users: Users
    }

    /// `thumbnail`.
    public struct Thumbnail: Codable, Sendable, Equatable {
        /// Image URL.
        public var url: String
        /// BlurHash, if computed.
        @Nullable public var blurhash: String?
    }

    /// One `icon`.
    public struct Icon: Codable, Sendable, Equatable {
        /// Image URL.
        public var src: String
        /// `WxH`.
        public var size: String
    }

    /// `registrations`.
    public struct Registrations: Codable, Sendable, Equatable {
        /// Whether sign-up is open.
        public var enabled: Bool
        /// Whether sign-ups wait for approval.
        public var approvalRequired: Bool
        /// Message shown when closed.
        @Nullable public var message: String?
        /// External sign-up page.
        @Nullable public var url: String?
        /// The youngest age allowed to sign up (none asked).
        @Nullable public var minAge: Int? = nil
        /// Whether a sign-up must give a reason (approval mode).
        public var reasonRequired: Bool = false
    }

    /// `contact`.
    public struct Contact: Codable, Sendable, Equatable {
        /// Contact email.
        public var email: String
        /// The admin's account, if public.
        @Nullable public var account: APIAccount?
    }
}

/// The v2 `configuration` of an instance (v1 uses its limit parts).
public struct APIInstanceConfiguration: Codable, Sendable, Equatable {
    /// URLs.
    public var urls: URLs
    /// Web Push key (push is not offered).
    public var vapid: Vapid
    /// Account limits.
    public var accounts: Accounts
    /// Post limits.
    public var statuses: Statuses
    /// Upload limits.
    public var mediaAttachments: MediaAttachments
    /// Poll limits.
    public var polls: Polls
    /// Translation.
    public var translation: Translation

    /// `configuration.urls`.
    public struct URLs: Codable, Sendable, Equatable {
        /// `ws(s)://` base of the streaming API.
        public var streaming: String
        /// Status page, if any.
        @Nullable public var status: String?
        /// The node's about page (its landing page).
        public var about: String = ""
        /// Its privacy policy page (none published).
        @Nullable public var privacyPolicy: String? = nil
        /// Its terms of service page (none published).
        @Nullable public var termsOfService: String? = nil
    }

    /// `configuration.vapid`.
    public struct Vapid: Codable, Sendable, Equatable {
        /// Public key.
        public var publicKey: String
    }

    /// `configuration.accounts`.
    public struct Accounts: Codable, Sendable, Equatable {
        /// Featured hashtags per profile.
        public var maxFeaturedTags: Int
        /// Pinned posts per profile.
        public var maxPinnedStatuses: Int
    }

    /// `configuration.statuses`.
    public struct Statuses: Codable, Sendable, Equatable {
        /// Characters per post.
        public var maxCharacters: Int
        /// Attachments per post.
        public var maxMediaAttachments: Int
        /// Characters a URL counts for.
        public var charactersReservedPerUrl: Int
    }

    /// `configuration.media_attachments`.
    public struct MediaAttachments: Codable, Sendable, Equatable {
        /// Accepted upload types.
        public var supportedMimeTypes: [String]
        /// Characters of alt text.
        public var descriptionLimit: Int
        /// Bytes per image.
        public var imageSizeLimit: Int
        /// Pixels per image.
        public var imageMatrixLimit: Int
        /// Bytes per video (0: videos are not accepted).
        public var videoSizeLimit: Int
        /// Frames per second.
        public var videoFrameRateLimit: Int
        /// Pixels per video frame.
        public var videoMatrixLimit: Int
    }

    /// `configuration.polls`.
    public struct Polls: Codable, Sendable, Equatable {
        /// Options per poll.
        public var maxOptions: Int
        /// Characters per option.
        public var maxCharactersPerOption: Int
        /// Shortest duration, seconds.
        public var minExpiration: Int
        /// Longest duration, seconds.
        public var maxExpiration: Int
    }

    /// `configuration.translation`.
    public struct Translation: Codable, Sendable, Equatable {
        /// Whether posts can be translated.
        public var enabled: Bool
    }
}
