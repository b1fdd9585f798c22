import GRDB

// One small type per aggregate, reached from a `Transaction`. Each file in this folder named
// after an aggregate holds its queries; this file only declares the types and their accessors.

extension Transaction {
    /// Local and remote accounts, their credentials and tombstones.
    public var accounts: Accounts { Accounts(db: grdb) }
    /// Posts and boosts, their mentions and hashtags.
    public var posts: Posts { Posts(db: grdb) }
    /// Home, public, tag and profile timelines.
    public var timelines: Timelines { Timelines(db: grdb) }
    /// Follow relations and follow requests.
    public var follows: Follows { Follows(db: grdb) }
    /// Blocks between accounts.
    public var blocks: Blocks { Blocks(db: grdb) }
    /// Blocked domains.
    public var domainBlocks: DomainBlockList { DomainBlockList(db: grdb) }
    /// Likes (favourites).
    public var likes: Likes { Likes(db: grdb) }
    /// Notifications of local accounts.
    public var notifications: Notifications { Notifications(db: grdb) }
    /// Media attachments.
    public var media: Media { Media(db: grdb) }
    /// Hashtags and their usage.
    public var tags: Tags { Tags(db: grdb) }
    /// The profile directory.
    public var directory: Directory { Directory(db: grdb) }
    /// Follow suggestions and their dismissals.
    public var suggestions: Suggestions { Suggestions(db: grdb) }
    /// Trending hashtags and posts.
    public var trends: Trends { Trends(db: grdb) }
    /// Link preview cards.
    public var previewCards: PreviewCards { PreviewCards(db: grdb) }
    /// OAuth applications, authorization codes and tokens.
    public var oauth: OAuthStore { OAuthStore(db: grdb) }
    /// The inbound activity queue and the activities already seen.
    public var inbox: Inbox { Inbox(db: grdb) }
    /// Outbound activities, the delivery queue and the health of remote domains.
    public var deliveries: Deliveries { Deliveries(db: grdb) }
    /// The streaming event log.
    public var stream: StreamLog { StreamLog(db: grdb) }
    /// Web Push subscriptions and the pushes queued for them.
    public var pushSubscriptions: PushSubscriptions { PushSubscriptions(db: grdb) }
    /// Node-wide settings.
    public var settings: Settings { Settings(db: grdb) }
    /// Figures about the whole node (NodeInfo, the instance entity, health).
    public var statistics: Statistics { Statistics(db: grdb) }
    /// Staff roles, reports and the instance's domain blocks.
    public var moderation: Moderation { Moderation(db: grdb) }
}

/// Staff roles, reports and the instance's domain blocks.
public struct Moderation { let db: Database }

/// Local and remote accounts, their credentials and tombstones.
public struct Accounts { let db: Database }
/// Posts and boosts, their mentions and hashtags.
public struct Posts { let db: Database }
/// Home, public, tag and profile timelines.
public struct Timelines { let db: Database }
/// Follow relations and follow requests.
public struct Follows { let db: Database }
/// Blocks between accounts.
public struct Blocks { let db: Database }
/// Blocked domains.
public struct DomainBlockList { let db: Database }
/// Likes (favourites).
public struct Likes { let db: Database }
/// Notifications of local accounts.
public struct Notifications { let db: Database }
/// Media attachments.
public struct Media { let db: Database }
/// Hashtags and their usage.
public struct Tags { let db: Database }
/// OAuth applications, authorization codes and tokens.
public struct OAuthStore { let db: Database }
/// The inbound activity queue and the activities already seen.
public struct Inbox { let db: Database }
/// Outbound activities, the delivery queue and the health of remote domains.
public struct Deliveries { let db: Database }
/// The streaming event log.
public struct StreamLog { let db: Database }
/// Web Push subscriptions and the pushes queued for them.
public struct PushSubscriptions { let db: Database }
/// Node-wide settings.
public struct Settings { let db: Database }
/// Figures about the whole node.
public struct Statistics { let db: Database }
