import GRDB

extension Timelines {
    /// The local accounts whose home timeline holds `postId`.
    public func homeReaders(of postId: Int64) throws -> [Int64] {
        try Int64.fetchAll(db, sql: "SELECT account_id FROM home_timeline WHERE post_id = ?", arguments: [postId])
    }

    // MARK: Also declared, same signature and query, by Timelines+Federation.swift of the
    // parallel refactor: keep one copy when merging.

    /// Adds `postId` to the home timeline of every local accepted follower of `authorId` (and of
    /// the author, with `includeAuthor`), skipping readers in a block relation with the author.
    public func fanOut(post postId: Int64, author authorId: Int64, includeAuthor: Bool) throws {
        try HomeTimeline.fanOut(postId: postId, authorId: authorId, includeAuthor: includeAuthor, in: db)
    }

    /// Removes everything `authorId` posted or boosted from `readerId`'s home timeline
    /// (unfollow, block).
    public func remove(author authorId: Int64, from readerId: Int64) throws {
        try HomeTimeline.remove(authorId: authorId, from: readerId, in: db)
    }
}
