import Core

/// The v1 `Instance` entity (`GET /api/v1/instance`), which older clients and Mastodon.py read.
public struct APIInstanceV1: Codable, Sendable, Equatable {
    /// The domain.
    public var uri: String
    /// Node name.
    public var title: String
    /// Short description.
    public var shortDescription: String
    /// Longer description (HTML).
    public var description: String
    /// Contact email.
    public var email: String
    /// Mastodon-compatible version string (clients parse the leading x.y.z).
    public var version: String
    /// Streaming base URL.
    public var urls: URLs
    /// Counts.
    public var stats: Stats
    /// Banner image URL.
    public var thumbnail: String
    /// ISO 639 codes of the node's languages.
    public var languages: [String]
    /// Whether sign-up is open.
    public var registrations: Bool
    /// Whether sign-ups wait for approval.
    public var approvalRequired: Bool
    /// Whether people may invite others.
    public var invitesEnabled: Bool
    /// Limits.
    public var configuration: APIInstanceConfigurationV1
    /// The admin's account, if public.
    @Nullable public var contactAccount: APIAccount?
    /// Server rules.
    public var rules: [APIRule]

    /// `urls`.
    public struct URLs: Codable, Sendable, Equatable {
        /// `ws(s)://` base of the streaming API.
        public var streamingApi: String
    }

    /// `stats`.
    public struct Stats: Codable, Sendable, Equatable {
        /// Local accounts.
        public var userCount: Int
        /// Local posts.
        public var statusCount: Int
        /// Other nodes known.
        public var domainCount: Int
    }
}

/// The v1 `configuration` of an instance.
public struct APIInstanceConfigurationV1: Codable, Sendable, Equatable {
    /// Account limits.
    public var accounts: APIInstanceConfiguration.Accounts
    /// Post limits.
    public var statuses: APIInstanceConfiguration.Statuses
    /// Upload limits.
    public var mediaAttachments: APIInstanceConfiguration.MediaAttachments
    /// Poll limits.
    public var polls: APIInstanceConfiguration.Polls
}

/// A server rule.
public struct APIRule: Codable, Sendable, Equatable {
    /// Rule id.
    public var id: String
    /// The rule.
    public var text: String
}
