import GRDB

// The aggregates of what a person keeps for themselves or features: declared here, beside
// `Aggregates.swift`, each with its queries in the file named after it.

extension Transaction {
    /// Bookmarked posts.
    public var bookmarks: Bookmarks { Bookmarks(db: session) }
    /// Muted accounts.
    public var mutes: Mutes { Mutes(db: session) }
    /// Pinned (featured) posts.
    public var pins: Pins { Pins(db: session) }
    /// Earlier versions of edited posts.
    public var postEdits: PostEdits { PostEdits(db: session) }
    /// Read markers of timelines.
    public var markers: Markers { Markers(db: session) }
}

/// Bookmarked posts.
public struct Bookmarks { let db: SQLSession }
/// Muted accounts.
public struct Mutes { let db: SQLSession }
/// Pinned (featured) posts.
public struct Pins { let db: SQLSession }
/// Earlier versions of edited posts.
public struct PostEdits { let db: SQLSession }
/// Read markers of timelines.
public struct Markers { let db: SQLSession }
