import GRDB

extension Timelines {
    /// Adds `postId` to the home timeline of every local accepted follower of `authorId` (and of
    /// the author, with `includeAuthor`), skipping readers in a block relation with the author.
    public func fanOut(post postId: Int64, author authorId: Int64, includeAuthor: Bool) throws {
        try HomeTimeline.fanOut(postId: postId, authorId: authorId, includeAuthor: includeAuthor, in: db)
    }

    /// Adds `postId` by `authorId` to the home timelines of the given local readers only
    /// (direct posts).
    public func add(post postId: Int64, author authorId: Int64, readers: [Int64]) throws {
        try HomeTimeline.add(postId: postId, authorId: authorId, readers: readers, in: db)
    }

    /// Removes everything `authorId` posted or boosted from `readerId`'s home timeline
    /// (unfollow, block, rejected follow).
    public func remove(author authorId: Int64, from readerId: Int64) throws {
        try HomeTimeline.remove(authorId: authorId, from: readerId, in: db)
    }
}
