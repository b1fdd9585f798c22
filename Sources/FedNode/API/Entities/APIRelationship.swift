import Core

/// Mastodon's `Relationship` entity: how the viewer and another account relate.
public struct APIRelationship: Codable, Sendable, Equatable {
    /// The other account's id.
    public var id: String
    /// Whether the viewer follows them (accepted).
    public var following: Bool
    /// Whether their boosts show in the viewer's home timeline.
    public var showingReblogs: Bool
    /// Whether the viewer is notified of their posts.
    public var notifying: Bool
    /// Languages filtered (none).
    public var languages: [String]
    /// Whether they follow the viewer.
    public var followedBy: Bool
    /// Whether the viewer blocks them.
    public var blocking: Bool
    /// Whether they block the viewer.
    public var blockedBy: Bool
    /// Whether the viewer mutes them (a mute still in force).
    public var muting: Bool
    /// Whether their notifications are hidden by that mute.
    public var mutingNotifications: Bool
    /// Whether the viewer's follow request is pending.
    public var requested: Bool
    /// Whether they asked to follow the viewer and wait for approval.
    public var requestedBy: Bool
    /// Whether the viewer blocks their domain.
    public var domainBlocking: Bool
    /// Whether featured on the viewer's profile.
    public var endorsed: Bool
    /// Private note.
    public var note: String
    /// When the viewer's mute of them ends; `null` without a mute or for one with no end.
    @Nullable public var mutingExpiresAt: String? = nil
}

/// Mastodon's `FamiliarFollowers` entity: who among those the viewer follows follows an account.
public struct APIFamiliarFollowers: Codable, Sendable, Equatable {
    /// The account's id.
    public var id: String
    /// The accounts the viewer follows that follow it.
    public var accounts: [APIAccount]
}

/// Mastodon's `Notification` entity.
public struct APINotification: Codable, Sendable, Equatable {
    /// Local id.
    public var id: String
    /// follow, follow_request, favourite, mention, reblog, status or update.
    public var type: String
    /// When it happened.
    public var createdAt: String
    /// Who caused it.
    public var account: APIAccount
    /// The post concerned, for favourite, mention, reblog, status and update.
    public var status: APIStatus?
    /// Grouping key (ungrouped: `ungrouped-ID`).
    public var groupKey: String
}

/// `GET /api/v1/statuses/:id/context`: the post's ancestors and its comments.
public struct APIContext: Codable, Sendable, Equatable {
    /// Parents, oldest first.
    public var ancestors: [APIStatus]
    /// Comments and their replies, in thread order.
    public var descendants: [APIStatus]
}

/// `GET /api/v2/search` results.
public struct APISearchResults: Codable, Sendable, Equatable {
    /// Matching people.
    public var accounts: [APIAccount]
    /// Matching posts.
    public var statuses: [APIStatus]
    /// Matching hashtags.
    public var hashtags: [APITag]
}
