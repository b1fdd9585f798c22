import Foundation
import GRDB
import Testing
@testable import Storage

/// The page loaders (`BatchQuery`: the ids as one JSON argument) answer for no ids at all and
/// for more ids than SQLite's old limit of 999 bound variables, keeping their order.
@Suite("Batch loads")
struct BatchLoadTests {
    /// 1,200 posts by one account: every third liked, bookmarked and boosted by a reader,
    /// every fifth with two photos.
    private static func node(_ dir: TemporaryDirectory) throws -> (NodeDatabase, author: Account, reader: Account, posts: [Post]) {
        let database = try NodeDatabase(path: dir.file("node.sqlite"))
        let author = Account(username: "author", domain: nil, uri: "https://local.example/users/author")
        let reader = Account(username: "reader", domain: nil, uri: "https://local.example/users/reader")
        let posts = (0..<1200).map { Post(uri: "\(author.uri)/statuses/\($0)", accountId: author.id, local: true) }
        try database.writeBlocking { tx in
            try tx.accounts.insert(author)
            try tx.accounts.insert(reader)
            for (n, post) in posts.enumerated() {
                try tx.posts.insert(post)
                if n % 3 == 0 {
                    try tx.likes.add(Like(accountId: reader.id, postId: post.id, uri: nil))
                    try tx.bookmarks.add(account: reader.id, post: post.id)
                    try tx.posts.insert(Post(uri: "\(reader.uri)/boosts/\(n)", accountId: reader.id, local: true).boosting(post.id))
                }
                if n % 5 == 0 {
                    // Inserted in reverse position order: the loader sorts them.
                    for position in [1, 0] {
                        var media = MediaAttachment(accountId: author.id, postId: post.id)
                        media.position = position
                        try tx.media.insert(media)
                    }
                }
            }
        }
        return (database, author, reader, posts)
    }

    @Test("1,200 ids load in one go, in the loaders' order")
    func overOldVariableLimit() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (database, author, reader, posts) = try Self.node(dir)
        let ids = posts.map(\.id)
        let everyThird = Set(posts.enumerated().filter { $0.offset % 3 == 0 }.map(\.element.id))
        try database.readBlocking { tx throws in
            #expect(Set(try tx.posts.find(ids: ids).map(\.id)) == Set(ids))
            let states = try tx.posts.viewerStates(of: reader.id, among: ids)
            #expect(states.liked == everyThird)
            #expect(states.bookmarked == everyThird)
            #expect(states.boosted == everyThird)
            #expect(try tx.posts.viewerStates(of: author.id, among: ids) == ViewerStates())
            let media = try tx.media.attachments(ofPosts: ids)
            #expect(media.count == 240)
            #expect(media.values.allSatisfy { $0.map(\.position) == [0, 1] })
            #expect(try tx.posts.counts(of: ids).count == 1200)
            #expect(try tx.posts.counts(of: ids)[posts[0].id]?.reblogs == 1)
            let accountIds = [author.id, reader.id] + (0..<1100).map { Int64($0) + 1 }
            #expect(try tx.accounts.find(ids: accountIds).count == 2)
            let withFigures = try tx.accounts.findWithFigures(ids: accountIds)
            #expect(withFigures.map(\.account.id).sorted() == [author.id, reader.id].sorted())
            #expect(try tx.accounts.figures(of: accountIds).keys.sorted() == [author.id, reader.id].sorted())
            #expect(try tx.posts.latestReplies(to: ids, perPost: 2, viewer: reader.id).isEmpty)
        }
    }

    @Test("no ids: every loader answers empty")
    func noIds() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (database, _, reader, _) = try Self.node(dir)
        let none: [Int64] = []
        try database.readBlocking { tx throws in
            #expect(try tx.posts.find(ids: none).isEmpty)
            #expect(try tx.accounts.find(ids: none).isEmpty)
            #expect(try tx.posts.viewerStates(of: reader.id, among: none) == ViewerStates())
            #expect(try tx.media.attachments(ofPosts: none).isEmpty)
            #expect(try tx.posts.mentionedAccounts(ofPosts: none).isEmpty)
            #expect(try tx.posts.hashtagNames(ofPosts: none).isEmpty)
            #expect(try tx.previewCards.cards(ofPosts: none).isEmpty)
            #expect(try tx.posts.counts(of: none).isEmpty)
            #expect(try tx.accounts.figures(of: none).isEmpty)
            #expect(try tx.accounts.findWithFigures(ids: none).isEmpty)
            #expect(try tx.pins.pinned(among: none).isEmpty)
            #expect(try tx.moderation.roles(of: none).isEmpty)
        }
    }

    @Test("an account's figures: kept counters, newest post or boost, where it moved; zeros for none")
    func accountFigures() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (database, author, reader, posts) = try Self.node(dir)
        let mover = Account(username: "mover", domain: nil, uri: "https://local.example/users/mover")
        try database.writeBlocking { tx in
            try tx.accounts.insert(mover)
            try tx.follows.insert(Follow(accountId: reader.id, targetAccountId: author.id, uri: nil, state: .accepted))
            try tx.accountMoves.recordMove(of: mover.id, to: reader.id)
        }
        try database.readBlocking { tx throws in
            let figures = try tx.accounts.figures(of: [author.id, reader.id, mover.id])
            let found = try tx.accounts.findWithFigures(ids: [author.id, reader.id, mover.id])
            #expect(Dictionary(uniqueKeysWithValues: found.map { ($0.account.id, $0.figures) }) == figures)
            // The reader's newest is a boost (every third post is boosted, the last at 1,197).
            let newestBoost = try tx.posts.boost(of: posts[1197].id, by: reader.id)
            #expect(figures[author.id] == AccountFigures(counts: AccountEntityCounts(followers: 1, following: 0, statuses: 1200),
                                                         lastPostAt: try tx.posts.find(id: posts[1199].id)?.createdAt))
            #expect(figures[reader.id] == AccountFigures(counts: AccountEntityCounts(followers: 0, following: 1, statuses: 0),
                                                         lastPostAt: newestBoost?.createdAt))
            #expect(figures[mover.id] == AccountFigures(movedToId: reader.id))
        }
    }

    @Test("an id listed twice loads its rows once (the ids are joined, not tested with IN)")
    func repeatedIds() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (database, author, reader, posts) = try Self.node(dir)
        let twice = [posts[0].id, posts[5].id, posts[0].id, posts[5].id]
        #expect(BatchQuery.json(twice) == "[\(posts[0].id),\(posts[5].id)]")
        try database.readBlocking { tx throws in
            #expect(try tx.posts.find(ids: twice).map(\.id).sorted() == [posts[0].id, posts[5].id].sorted())
            #expect(try tx.accounts.find(ids: [author.id, author.id]).count == 1)
            #expect(try tx.accounts.findWithFigures(ids: [reader.id, reader.id]).count == 1)
            #expect(try tx.media.attachments(ofPosts: twice)[posts[0].id]?.map(\.position) == [0, 1])
            #expect(try tx.posts.counts(of: twice).count == 2)
            let states = try tx.posts.viewerStates(of: reader.id, among: twice)
            #expect(states.liked == [posts[0].id])
            #expect(states.boosted == [posts[0].id])
        }
    }

    @Test("accounts are found by actor URI (an inbound post's mentions), not only by id")
    func accountsByURI() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (database, author, reader, _) = try Self.node(dir)
        try database.readBlocking { tx throws in
            let found = try tx.accounts.find(uris: [reader.uri, author.uri, "https://elsewhere.example/users/nobody"])
            #expect(Set(found.map(\.id)) == [author.id, reader.id])
            #expect(try tx.accounts.find(uris: []).isEmpty)
        }
    }
}

private extension Post {
    /// This row as a boost of `originalId`.
    func boosting(_ originalId: Int64) -> Post {
        var boost = self
        boost.reblogOfId = originalId
        return boost
    }
}
