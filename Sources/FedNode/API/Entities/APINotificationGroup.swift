import Core

/// Mastodon's `NotificationGroup` entity (4.3, `GET /api/v2/notifications`): notifications of
/// one kind about one thing, shown once.
public struct APINotificationGroup: Codable, Sendable, Equatable {
    /// Opaque key; `ungrouped-ID` for a notification on its own.
    public var groupKey: String
    /// How many notifications the group holds.
    public var notificationsCount: Int
    /// The notifications' type.
    public var type: String
    /// The newest notification's id.
    public var mostRecentNotificationId: String
    /// The oldest notification of the group on this page (pages only).
    public var pageMinId: String?
    /// The newest notification of the group on this page (pages only).
    public var pageMaxId: String?
    /// When the newest notification of the group on this page came (pages only).
    public var latestPageNotificationAt: String?
    /// Who caused the newest ones, newest first (in `accounts` or `partial_accounts`).
    public var sampleAccountIds: [String]
    /// The post concerned (in `statuses`), for favourite, reblog, mention, status and update.
    public var statusId: String?
}

/// The stripped-down account of `expand_accounts=partial_avatars`.
public struct APIPartialAccount: Codable, Sendable, Equatable {
    /// Local id.
    public var id: String
    /// `username` or `username@domain`.
    public var acct: String
    /// Whether follows need approval.
    public var locked: Bool
    /// Whether it is automated.
    public var bot: Bool
    /// Profile page.
    public var url: String
    /// Avatar image.
    public var avatar: String
    /// Avatar image, not animated.
    public var avatarStatic: String

    /// The partial form of `account`.
    init(_ account: APIAccount) {
        (id, acct, locked, bot, url) = (account.id, account.acct, account.locked, account.bot, account.url)
        (avatar, avatarStatic) = (account.avatar, account.avatarStatic)
    }
}

/// Mastodon's `GroupedNotificationsResults`: the groups, with every account and post they
/// refer to given once.
public struct APIGroupedNotificationsResults: Codable, Sendable, Equatable {
    /// Accounts the groups refer to.
    public var accounts: [APIAccount]
    /// With `expand_accounts=partial_avatars`: the sample accounts other than each group's newest.
    public var partialAccounts: [APIPartialAccount]?
    /// Posts the groups refer to.
    public var statuses: [APIStatus]
    /// The groups, newest first.
    public var notificationGroups: [APINotificationGroup]
}
