import Core
import Foundation
import Storage

/// Everything rendering a page of statuses, accounts or notifications needs, loaded for the
/// whole page at once: about a dozen queries per page (authors and their counters, boosted
/// originals, post counters, media, mentions, tags, the viewer's likes, boosts, bookmarks and
/// pins), whatever its length, instead of a dozen per status.
struct RenderBatch {
    /// Every post that may be rendered, by id: the page's and the posts they boost.
    var posts: [Int64: Post] = [:]
    /// Authors of `posts` and the other accounts asked for, by id.
    var accounts: [Int64: Account] = [:]
    /// Counters, newest post time and move of each of `accounts` and of the accounts they moved to.
    var figures: [Int64: AccountFigures] = [:]
    /// Replies, boosts and likes of the posts that have any.
    var postCounts: [Int64: PostCounts] = [:]
    /// Photos of the posts that have any, in order.
    var media: [Int64: [MediaAttachment]] = [:]
    /// Accounts mentioned in the posts that mention any.
    var mentions: [Int64: [MentionedAccount]] = [:]
    /// Hashtag names of the posts that have any, sorted.
    var tags: [Int64: [String]] = [:]
    /// Link preview cards of the posts that have one.
    var cards: [Int64: PreviewCard] = [:]
    /// Those of `posts` the viewer likes, boosted and bookmarked.
    var viewerStates = ViewerStates()
    /// Those of `posts` their authors pinned.
    var pinned: Set<Int64> = []
    /// Where those of `accounts` that moved went (`Account.moved`).
    var movedTo: [Int64: Account] = [:]
    /// Staff roles of the local ones of `accounts` that have one.
    var roles: [Int64: StaffRole] = [:]
    /// Those of `posts` in conversations the viewer muted.
    var mutedConversations: Set<Int64> = []
    /// Polls of the posts that have one.
    var polls: [Int64: Poll] = [:]
    /// The viewer's choices in those polls they voted in.
    var ownVotes: [Int64: [Int]] = [:]

    /// What rendering `accounts` needs: their counters, last post times and moves.
    static func accounts(_ accounts: [Account], db: Transaction) throws -> RenderBatch {
        var batch = RenderBatch()
        for account in accounts { batch.accounts[account.id] = account }
        try batch.keep(try db.accounts.figures(of: Array(batch.accounts.keys)), db)
        return batch
    }

    /// What rendering `posts` as `viewer` needs, with the accounts `accountIds` too (the
    /// senders of notifications).
    static func statuses(_ posts: [Post], accountIds: Set<Int64> = [], viewer: Int64?,
                         db: Transaction) throws -> RenderBatch {
        var batch = RenderBatch()
        for post in posts { batch.posts[post.id] = post }
        try batch.loadOriginals(db)
        let all = Array(batch.posts.values)
        let ids = all.map(\.id)
        var figures: [Int64: AccountFigures] = [:]
        for (account, figure) in try db.accounts.findWithFigures(ids: Set(all.map(\.accountId)).union(accountIds)) {
            batch.accounts[account.id] = account
            figures[account.id] = figure
        }
        try batch.keep(figures, db)
        batch.postCounts = try db.posts.counts(of: ids)
        batch.media = try db.media.attachments(ofPosts: all.filter { $0.reblogOfId == nil }.map(\.id))
        batch.mentions = try db.posts.mentionedAccounts(ofPosts: ids)
        batch.tags = try db.posts.hashtagNames(ofPosts: ids)
        batch.cards = try db.previewCards.cards(ofPosts: ids)
        batch.polls = try db.polls.polls(ofPosts: ids)
        if let viewer, !batch.polls.isEmpty { batch.ownVotes = try db.polls.choices(of: viewer, inPolls: batch.polls.keys) }
        if let viewer {
            batch.viewerStates = try db.posts.viewerStates(of: viewer, among: Set(all.map { $0.reblogOfId ?? $0.id }))
            batch.pinned = try db.pins.pinned(among: all.filter { $0.accountId == viewer }.map(\.id))
            batch.mutedConversations = try db.conversationMutes.muted(by: viewer, among: Set(all.map { $0.reblogOfId ?? $0.id }))
        }
        return batch
    }

    /// Adds the posts boosted by `posts` that are not there yet (and theirs, should a boost
    /// ever boost a boost).
    private mutating func loadOriginals(_ db: Transaction) throws {
        var missing = Set(posts.values.compactMap(\.reblogOfId)).subtracting(posts.keys)
        while !missing.isEmpty {
            let found = try db.posts.find(ids: missing)
            for post in found { posts[post.id] = post }
            missing = Set(found.compactMap(\.reblogOfId)).subtracting(posts.keys)
        }
    }

    /// Keeps `figures`, and loads the accounts that those which moved went to, with their own
    /// figures (one query more, only when any moved).
    private mutating func keep(_ figures: [Int64: AccountFigures], _ db: Transaction) throws {
        self.figures.merge(figures) { _, new in new }
        let local = accounts.values.filter(\.isLocal).map(\.id)
        if !local.isEmpty { roles = try db.moderation.roles(of: local) }
        let targets = figures.compactMapValues(\.movedToId)
        guard !targets.isEmpty else { return }
        var found: [Int64: Account] = [:]
        for (account, figure) in try db.accounts.findWithFigures(ids: Set(targets.values)) {
            found[account.id] = account
            self.figures[account.id] = figure
        }
        movedTo = targets.compactMapValues { found[$0] }
    }
}
