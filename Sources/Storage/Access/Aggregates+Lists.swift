import GRDB

extension Transaction {
    /// Hashtags followed by local accounts.
    public var followedTags: FollowedTags { FollowedTags(db: session) }
    /// Lists of followed accounts and their timelines.
    public var lists: Lists { Lists(db: session) }
    /// Content filters, their keywords and filtered posts.
    public var filters: Filters { Filters(db: session) }
    /// Direct-message conversations.
    public var conversations: Conversations { Conversations(db: session) }
}

/// Hashtags followed by local accounts.
public struct FollowedTags { let db: SQLSession }
/// Lists of followed accounts and their timelines.
public struct Lists { let db: SQLSession }
/// Content filters, their keywords and filtered posts.
public struct Filters { let db: SQLSession }
/// Direct-message conversations.
public struct Conversations { let db: SQLSession }
