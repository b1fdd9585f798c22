import Core

/// The person's posting and reading defaults (`Preferences`), under Mastodon's colon keys.
public struct APIPreferences: Codable, Sendable, Equatable {
    /// Default visibility of new posts.
    public var postingDefaultVisibility: String
    /// Whether new posts are marked sensitive by default.
    public var postingDefaultSensitive: Bool
    /// Default language of new posts.
    @Nullable public var postingDefaultLanguage: String?
    /// `default`, `show_all` or `hide_all` for sensitive media.
    public var readingExpandMedia: String
    /// Whether content warnings are expanded.
    public var readingExpandSpoilers: Bool

    enum CodingKeys: String, CodingKey {
        case postingDefaultVisibility = "posting:default:visibility"
        case postingDefaultSensitive = "posting:default:sensitive"
        case postingDefaultLanguage = "posting:default:language"
        case readingExpandMedia = "reading:expand:media"
        case readingExpandSpoilers = "reading:expand:spoilers"
    }
}
