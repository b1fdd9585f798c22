import Foundation
import GRDB
import Testing
@testable import Storage

/// The kept counters (`account_stats`, `post_stats`) after the changes a node makes: follows
/// requested, accepted, rejected and undone; posts, replies, boosts and deletes; likes and
/// unlikes; accounts deleted with everything they own.
@Suite("Account and post counters")
struct CounterTests {
    /// A fresh node database with local accounts `names`, by name.
    private static func node(_ dir: TemporaryDirectory, accounts names: [String], engine: TestEngine = .sqlite) throws -> (NodeDatabase, [String: Account]) {
        let database = try engine.open(dir)
        var accounts: [String: Account] = [:]
        try database.writeBlocking { tx in
            for name in names {
                let account = Account(username: name, domain: name.hasPrefix("r") ? "remote.example" : nil,
                                      uri: "https://\(name.hasPrefix("r") ? "remote.example" : "local.example")/users/\(name)")
                try tx.accounts.insert(account)
                accounts[name] = account
            }
        }
        return (database, accounts)
    }

    private static func post(_ author: Account, _ n: Int, replyTo parent: Post? = nil, visibility: Visibility = .public,
                             boosting original: Post? = nil) -> Post {
        var post = Post(uri: "\(author.uri)/statuses/\(n)", accountId: author.id, local: author.domain == nil)
        post.inReplyToId = parent?.id
        post.inReplyToAccountId = parent?.accountId
        post.reblogOfId = original?.id
        post.visibility = visibility
        return post
    }

    @Test("a realistic mix of follows, posts, boosts, likes and deletes leaves every counter equal to a recount",
          arguments: TestEngine.all)
    func realisticMix(engine: TestEngine) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (database, a) = try Self.node(dir, accounts: ["alice", "bob", "carol", "dave", "rémi", "rita"], engine: engine)
        let (alice, bob, carol, dave, remi, rita) = (a["alice"]!, a["bob"]!, a["carol"]!, a["dave"]!, a["rémi"]!, a["rita"]!)
        let photo = Self.post(alice, 1)
        try database.writeBlocking { tx in
            // Follows: accepted at once, requested then accepted, requested then rejected, undone.
            for follower in [bob, carol, remi] { try tx.follows.insert(Follow(accountId: follower.id, targetAccountId: alice.id, uri: nil, state: .accepted)) }
            var request = Follow(accountId: dave.id, targetAccountId: alice.id, uri: nil, state: .pending)
            try tx.follows.insert(request)
            request.state = .accepted
            try tx.follows.update(request)
            let rejected = Follow(accountId: rita.id, targetAccountId: alice.id, uri: nil, state: .pending)
            try tx.follows.insert(rejected)
            try tx.follows.delete(rejected)
            let unfollowed = Follow(accountId: alice.id, targetAccountId: bob.id, uri: nil, state: .accepted)
            try tx.follows.insert(unfollowed)
            try tx.follows.delete(unfollowed)
            // A block removes the follows both ways.
            try tx.follows.insert(Follow(accountId: carol.id, targetAccountId: dave.id, uri: nil, state: .accepted))
            try tx.follows.insert(Follow(accountId: dave.id, targetAccountId: carol.id, uri: nil, state: .pending))
            try tx.follows.deleteAll(between: carol.id, and: dave.id)
            try tx.follows.insert(Follow(accountId: alice.id, targetAccountId: carol.id, uri: nil, state: .accepted))
            // Posts, public and hidden replies, boosts, likes.
            try tx.posts.insert(photo)
            try tx.posts.insert(Self.post(alice, 2))
            try tx.posts.insert(Self.post(bob, 1, replyTo: photo))
            try tx.posts.insert(Self.post(carol, 1, replyTo: photo, visibility: .unlisted))
            try tx.posts.insert(Self.post(dave, 1, replyTo: photo, visibility: .private))
            try tx.posts.insert(Self.post(remi, 1, replyTo: photo, visibility: .direct))
            for booster in [bob, carol, remi] { try tx.posts.insert(Self.post(booster, 100, boosting: photo)) }
            for liker in [bob, carol, dave, remi, rita] { try tx.likes.add(Like(accountId: liker.id, postId: photo.id, uri: nil)) }
            try tx.likes.add(Like(accountId: bob.id, postId: photo.id, uri: nil))  // a repeated like counts once
        }
        try #expect(database.readBlocking { try $0.posts.counts(of: photo.id) } == PostCounts(postId: photo.id, replies: 2, reblogs: 3, favourites: 5))
        try #expect(database.readBlocking { try $0.accounts.entityCounts(of: alice.id) } == AccountEntityCounts(followers: 4, following: 1, statuses: 2))

        try database.writeBlocking { tx in
            // Unlike, unboost, a reply made followers-only by an edit, a reply deleted.
            try tx.likes.delete(try #require(try tx.likes.find(account: carol.id, post: photo.id)))
            _ = try tx.posts.deleteBoost(uri: "\(bob.uri)/statuses/100", account: bob.id)
            var reply = try #require(try tx.posts.find(uri: "\(carol.uri)/statuses/1"))
            reply.visibility = .private
            try tx.posts.update(reply)
            try tx.posts.delete(try #require(try tx.posts.find(uri: "\(dave.uri)/statuses/1")))
            // A remote account deleted with its follows, boost, like and reply.
            try tx.accounts.delete(remi)
        }
        try #expect(database.readBlocking { try $0.posts.counts(of: photo.id) } == PostCounts(postId: photo.id, replies: 1, reblogs: 1, favourites: 3))
        try #expect(database.readBlocking { try $0.accounts.entityCounts(of: alice.id) } == AccountEntityCounts(followers: 3, following: 1, statuses: 2))
        try #expect(database.readBlocking { try $0.accounts.entityCounts(of: dave.id) } == AccountEntityCounts(followers: 0, following: 1, statuses: 0))

        try database.writeBlocking { tx in
            // The photo deleted: its replies stay (detached), its boosts and likes go.
            try tx.posts.delete(photo)
            try tx.accounts.delete(bob)
        }
        let (mismatches, carolCounts, counterRows) = try database.readBlocking { tx in
            (try tx.statistics.counterMismatches(), try tx.accounts.entityCounts(of: carol.id),
             try Int.fetchOne(tx.session, sql: "SELECT (SELECT COUNT(*) FROM post_stats) + (SELECT COUNT(*) FROM account_stats WHERE account_id IN (?, ?))",
                              arguments: [bob.id, remi.id]))
        }
        #expect(mismatches == [])
        #expect(carolCounts == AccountEntityCounts(followers: 1, following: 1, statuses: 1))
        #expect(counterRows == 0, "the counter rows of deleted posts and accounts are gone with them")
    }

    @Test("a counter that drifted is reported and a rebuild puts it right")
    func mismatchReported() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (database, a) = try Self.node(dir, accounts: ["alice", "bob"])
        let photo = Self.post(a["alice"]!, 1)
        try database.writeBlocking { tx in
            try tx.follows.insert(Follow(accountId: a["bob"]!.id, targetAccountId: a["alice"]!.id, uri: nil, state: .accepted))
            try tx.posts.insert(photo)
            try tx.likes.add(Like(accountId: a["bob"]!.id, postId: photo.id, uri: nil))
            try tx.grdb.execute(sql: "UPDATE account_stats SET followers_count = 7 WHERE account_id = ?", arguments: [a["alice"]!.id])
            try tx.grdb.execute(sql: "DELETE FROM post_stats")
        }
        let found = try database.readBlocking { try $0.statistics.counterMismatches() }
        #expect(found == [
            CounterMismatch(kind: .account, id: a["alice"]!.id, counter: "followers_count", stored: 7, counted: 1),
            CounterMismatch(kind: .post, id: photo.id, counter: "favourites_count", stored: 0, counted: 1),
        ])
        #expect(found.first?.description == "account \(a["alice"]!.id) followers_count: stored 7, counted 1")
        try database.writeBlocking { try $0.statistics.rebuildCounters() }
        try #expect(database.readBlocking { try $0.statistics.counterMismatches() } == [])
    }

    @Test("the migration counts the follows, posts and likes stored before it")
    func migrationBackfills() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("node.sqlite")
        let queue = try DatabaseQueue(path: path)
        try Migrations.migrator.migrate(queue, upTo: "v3-queue-hardening")
        let (alice, bob) = (Account(username: "alice", domain: nil, uri: "https://l.example/users/alice"),
                            Account(username: "bob", domain: nil, uri: "https://l.example/users/bob"))
        let photo = Self.post(alice, 1)
        try queue.write { db in
            try alice.insert(db)
            try bob.insert(db)
            try Follow(accountId: bob.id, targetAccountId: alice.id, uri: nil, state: .accepted).insert(db)
            try Follow(accountId: alice.id, targetAccountId: bob.id, uri: nil, state: .pending).insert(db)
            try photo.insert(db)
            try Self.post(bob, 1, replyTo: photo).insert(db)
            try Self.post(bob, 2, boosting: photo).insert(db)
            try Like(accountId: bob.id, postId: photo.id, uri: nil).insert(db)
        }
        try queue.close()
        let database = try NodeDatabase(path: path)
        let (mismatches, counts, aliceCounts) = try database.readBlocking { tx in
            (try tx.statistics.counterMismatches(), try tx.posts.counts(of: photo.id), try tx.accounts.entityCounts(of: alice.id))
        }
        #expect(mismatches == [])
        #expect(counts == PostCounts(postId: photo.id, replies: 1, reblogs: 1, favourites: 1))
        #expect(aliceCounts == AccountEntityCounts(followers: 1, following: 0, statuses: 1))
    }
}
