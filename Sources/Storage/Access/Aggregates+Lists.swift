import GRDB

extension Transaction {
    /// Hashtags followed by local accounts.
    public var followedTags: FollowedTags { FollowedTags(db: grdb) }
    /// Lists of followed accounts and their timelines.
    public var lists: Lists { Lists(db: grdb) }
    /// Content filters, their keywords and filtered posts.
    public var filters: Filters { Filters(db: grdb) }
    /// Direct-message conversations.
    public var conversations: Conversations { Conversations(db: grdb) }
}

/// Hashtags followed by local accounts.
public struct FollowedTags { let db: Database }
/// Lists of followed accounts and their timelines.
public struct Lists { let db: Database }
/// Content filters, their keywords and filtered posts.
public struct Filters { let db: Database }
/// Direct-message conversations.
public struct Conversations { let db: Database }
