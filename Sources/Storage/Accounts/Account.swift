import Foundation
import GRDB

/// A person on this node (`domain == nil`) or one known from another node.
public struct Account: Record, Equatable, Identifiable {
    /// Table name.
    public static let databaseTableName = "accounts"
    /// Snowflake id.
    public var id: Int64
    /// Local part of the handle, as the person chose it.
    public var username: String
    /// Host of the account's node; `nil` for local accounts.
    public var domain: String?
    /// ActivityPub actor id.
    public var uri: String
    /// Profile page URL.
    public var url: String?
    /// Name shown instead of the handle.
    public var displayName: String = ""
    /// Given name.
    public var firstName: String = ""
    /// Family name.
    public var lastName: String = ""
    /// Bio as HTML; sanitised when it came from another node.
    public var note: String = ""
    /// Bio as the person typed it (local accounts).
    public var noteSource: String = ""
    /// Personal website.
    public var website: String = ""
    /// Profile links (GitHub, other social pages, ...).
    public var fields: [ProfileField] = []
    /// Avatar image reference (a URL, or a local media path).
    public var avatarUrl: String?
    /// Cover image reference.
    public var headerUrl: String?
    /// Whether follow requests need approval.
    public var locked: Bool = false
    /// Whether the account may be suggested and found in search.
    public var discoverable: Bool = true
    /// Whether the actor is automated (`Service`/`Application`).
    public var bot: Bool = false
    /// ActivityStreams actor type.
    public var actorType: String = "Person"
    /// Personal inbox.
    public var inboxUrl: String?
    /// The node's shared inbox, preferred for delivery.
    public var sharedInboxUrl: String?
    /// Outbox collection.
    public var outboxUrl: String?
    /// Followers collection.
    public var followersUrl: String?
    /// Following collection.
    public var followingUrl: String?
    /// Id of the public key (`ACTOR#main-key`).
    public var publicKeyId: String?
    /// Public key, SPKI PEM.
    public var publicKeyPem: String?
    /// Private key, PKCS#8 PEM; local accounts only.
    public var privateKeyPem: String?
    /// Followers count as the origin reports it (remote accounts).
    public var followersCount: Int = 0
    /// Following count as the origin reports it (remote accounts).
    public var followingCount: Int = 0
    /// Posts count as the origin reports it (remote accounts).
    public var statusesCount: Int = 0
    /// When the row was created.
    public var createdAt: Date
    /// When the profile last changed.
    public var updatedAt: Date
    /// When a remote actor was last fetched from its origin.
    public var fetchedAt: Date?

    /// Creates an account row; everything optional starts empty.
    public init(id: Int64 = Snowflake.next(), username: String, domain: String?, uri: String, createdAt: Date = Date()) {
        self.id = id
        self.username = username
        self.domain = domain
        self.uri = uri
        self.createdAt = createdAt
        self.updatedAt = createdAt
    }

    /// Whether the account lives on this node.
    public var isLocal: Bool { domain == nil }

    /// `username` for local accounts, `username@domain` for remote ones (Mastodon's `acct`).
    public var acct: String { Self.acct(username: username, domain: domain) }

    /// Mastodon's `acct` of the account `username` on `domain` (`nil`: this node).
    static func acct(username: String, domain: String?) -> String { domain.map { "\(username)@\($0)" } ?? username }

    /// Where activities for this account should go: the shared inbox when there is one.
    public var deliveryInbox: String? { sharedInboxUrl ?? inboxUrl }
}

/// One profile link, as Mastodon's `fields` and ActivityPub's `PropertyValue`.
public struct ProfileField: Codable, Sendable, Equatable {
    /// Label, such as "GitHub".
    public var name: String
    /// Value, usually a URL or HTML link.
    public var value: String

    /// Creates a profile link.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
