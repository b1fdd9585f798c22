import GRDB

// One small type per aggregate, reached from a `Transaction`. Each file in this folder named
// after an aggregate holds its queries; this file only declares the types and their accessors.

extension Transaction {
    /// Local and remote accounts, their credentials and tombstones.
    public var accounts: Accounts { Accounts(db: session) }
    /// Posts and boosts, their mentions and hashtags.
    public var posts: Posts { Posts(db: session) }
    /// Home, public, tag and profile timelines.
    public var timelines: Timelines { Timelines(db: session) }
    /// Follow relations and follow requests.
    public var follows: Follows { Follows(db: session) }
    /// Blocks between accounts.
    public var blocks: Blocks { Blocks(db: session) }
    /// Blocked domains.
    public var domainBlocks: DomainBlockList { DomainBlockList(db: session) }
    /// Likes (favourites).
    public var likes: Likes { Likes(db: session) }
    /// Notifications of local accounts.
    public var notifications: Notifications { Notifications(db: session) }
    /// Media attachments.
    public var media: Media { Media(db: session) }
    /// Hashtags and their usage.
    public var tags: Tags { Tags(db: session) }
    /// The profile directory.
    public var directory: Directory { Directory(db: session) }
    /// Follow suggestions and their dismissals.
    public var suggestions: Suggestions { Suggestions(db: session) }
    /// Trending hashtags and posts.
    public var trends: Trends { Trends(db: session) }
    /// Link preview cards.
    public var previewCards: PreviewCards { PreviewCards(db: session) }
    /// OAuth applications, authorization codes and tokens.
    public var oauth: OAuthStore { OAuthStore(db: session) }
    /// The inbound activity queue and the activities already seen.
    public var inbox: Inbox { Inbox(db: session) }
    /// Outbound activities, the delivery queue and the health of remote domains.
    public var deliveries: Deliveries { Deliveries(db: session) }
    /// The streaming event log.
    public var stream: StreamLog { StreamLog(db: session) }
    /// Web Push subscriptions and the pushes queued for them.
    public var pushSubscriptions: PushSubscriptions { PushSubscriptions(db: session) }
    /// Node-wide settings.
    public var settings: Settings { Settings(db: session) }
    /// Figures about the whole node (NodeInfo, the instance entity, health).
    public var statistics: Statistics { Statistics(db: session) }
    /// Staff roles, reports and the instance's domain blocks.
    public var moderation: Moderation { Moderation(db: session) }
    /// What the processes of one node share: claims on queued work, rate-limit windows,
    /// scheduled jobs' turns.
    public var coordination: Coordination { Coordination(db: session) }
}

/// Staff roles, reports and the instance's domain blocks.
public struct Moderation { let db: SQLSession }
/// What the processes of one node share: claims on queued work, rate-limit windows,
/// scheduled jobs' turns.
public struct Coordination { let db: SQLSession }

/// Local and remote accounts, their credentials and tombstones.
public struct Accounts { let db: SQLSession }
/// Posts and boosts, their mentions and hashtags.
public struct Posts { let db: SQLSession }
/// Home, public, tag and profile timelines.
public struct Timelines { let db: SQLSession }
/// Follow relations and follow requests.
public struct Follows { let db: SQLSession }
/// Blocks between accounts.
public struct Blocks { let db: SQLSession }
/// Blocked domains.
public struct DomainBlockList { let db: SQLSession }
/// Likes (favourites).
public struct Likes { let db: SQLSession }
/// Notifications of local accounts.
public struct Notifications { let db: SQLSession }
/// Media attachments.
public struct Media { let db: SQLSession }
/// Hashtags and their usage.
public struct Tags { let db: SQLSession }
/// OAuth applications, authorization codes and tokens.
public struct OAuthStore { let db: SQLSession }
/// The inbound activity queue and the activities already seen.
public struct Inbox { let db: SQLSession }
/// Outbound activities, the delivery queue and the health of remote domains.
public struct Deliveries { let db: SQLSession }
/// The streaming event log.
public struct StreamLog { let db: SQLSession }
/// Web Push subscriptions and the pushes queued for them.
public struct PushSubscriptions { let db: SQLSession }
/// Node-wide settings.
public struct Settings { let db: SQLSession }
/// Figures about the whole node.
public struct Statistics { let db: SQLSession }
