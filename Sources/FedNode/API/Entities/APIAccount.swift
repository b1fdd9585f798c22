import Core
import Foundation

/// Mastodon's `Account` entity (docs.joinmastodon.org/entities/Account). FedNode adds
/// `first_name` and `last_name` (the photo app's profile names) at the top level and in `source`.
public struct APIAccount: Codable, Sendable, Equatable {
    /// Local id, as a string.
    public var id: String
    /// Local part of the handle.
    public var username: String
    /// `username` for local accounts, `username@domain` for remote ones.
    public var acct: String
    /// Display name (may be empty).
    public var displayName: String
    /// Given name (FedNode extension).
    public var firstName: String
    /// Family name (FedNode extension).
    public var lastName: String
    /// Whether follows need approval.
    public var locked: Bool
    /// Whether the actor is automated.
    public var bot: Bool
    /// Whether the account opts into discovery.
    public var discoverable: Bool
    /// Whether the actor is a group.
    public var group: Bool
    /// Creation time (midnight UTC of that day, as Mastodon rounds it).
    public var createdAt: String
    /// Bio as HTML.
    public var note: String
    /// Profile page.
    public var url: String
    /// ActivityPub actor id.
    public var uri: String
    /// Avatar URL (a default image when none is set).
    public var avatar: String
    /// Static avatar URL.
    public var avatarStatic: String
    /// Cover image URL (a default image when none is set).
    public var header: String
    /// Static cover URL.
    public var headerStatic: String
    /// Followers known here (local: exact; remote: the larger of the origin's figure and ours).
    public var followersCount: Int
    /// Accounts followed.
    public var followingCount: Int
    /// Posts.
    public var statusesCount: Int
    /// Date of the latest post (`YYYY-MM-DD`).
    @Nullable public var lastStatusAt: String?
    /// Custom emoji (none on FedNode).
    public var emojis: [APIEmoji]
    /// Profile links.
    public var fields: [APIField]
    /// Only in verify_credentials and update_credentials.
    public var source: APISource?
    /// The account this one moved to; absent when it has not moved.
    public var moved: APIMovedAccount? = nil
    /// Whether its public posts may be found in full-text search (as `discoverable` on FedNode).
    public var indexable: Bool = false
    /// Whether it hides whom it follows and who follows it (never on FedNode).
    public var hideCollections: Bool = false
    /// Whether it asks search engines not to index it; told for local accounts only.
    public var noindex: Bool? = nil
    /// Its staff roles shown as badges (local accounts).
    public var roles: [APIAccountRole] = []
    /// The signed-in account's own role, in verify_credentials and update_credentials only.
    public var role: APIRole? = nil
}

/// A role shown on a profile (`AccountRole`).
public struct APIAccountRole: Codable, Sendable, Equatable {
    /// Role id.
    public var id: String
    /// Display name.
    public var name: String
    /// Badge colour (none).
    public var color: String
}

/// A profile link (`Field`).
public struct APIField: Codable, Sendable, Equatable {
    /// Label.
    public var name: String
    /// Value (HTML).
    public var value: String
    /// When the link was verified (never, on FedNode).
    @Nullable public var verifiedAt: String?
}

/// Custom emoji (`CustomEmoji`).
public struct APIEmoji: Codable, Sendable, Equatable {
    /// Shortcode without colons.
    public var shortcode: String
    /// Image URL.
    public var url: String
    /// Static image URL.
    public var staticUrl: String
    /// Whether shown in pickers.
    public var visibleInPicker: Bool
}

/// The owner's editable profile as typed (`Account.source`).
public struct APISource: Codable, Sendable, Equatable {
    /// Bio as typed.
    public var note: String
    /// Links as typed.
    public var fields: [APIField]
    /// Default post visibility.
    public var privacy: String
    /// Whether media is marked sensitive by default.
    public var sensitive: Bool
    /// Default language.
    @Nullable public var language: String?
    /// Pending follow requests.
    public var followRequestsCount: Int
    /// Given name (FedNode extension).
    public var firstName: String
    /// Family name (FedNode extension).
    public var lastName: String
    /// Whether the account may be suggested and listed in the directory.
    public var discoverable: Bool = false
    /// Whether its public posts may be found in full-text search.
    public var indexable: Bool = false
    /// Whether it hides its follows and followers (never on FedNode).
    public var hideCollections: Bool = false
}
