import GRDB

// The aggregates of what a person keeps for themselves or features: declared here, beside
// `Aggregates.swift`, each with its queries in the file named after it.

extension Transaction {
    /// Bookmarked posts.
    public var bookmarks: Bookmarks { Bookmarks(db: grdb) }
    /// Muted accounts.
    public var mutes: Mutes { Mutes(db: grdb) }
    /// Pinned (featured) posts.
    public var pins: Pins { Pins(db: grdb) }
    /// Earlier versions of edited posts.
    public var postEdits: PostEdits { PostEdits(db: grdb) }
    /// Read markers of timelines.
    public var markers: Markers { Markers(db: grdb) }
}

/// Bookmarked posts.
public struct Bookmarks { let db: Database }
/// Muted accounts.
public struct Mutes { let db: Database }
/// Pinned (featured) posts.
public struct Pins { let db: Database }
/// Earlier versions of edited posts.
public struct PostEdits { let db: Database }
/// Read markers of timelines.
public struct Markers { let db: Database }
