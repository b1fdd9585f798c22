@testable import Core
import Foundation
import GRDB
import Storage
import Testing
@testable import FedNode

/// Three real nodes on loopback, talking signed ActivityPub over libcurl: the product's core
/// promise, checked as each node's users would see it.
@Suite("Three-node federation", .serialized)
struct ThreeNodeScenarioTests {
    @Test("follow, post a photo, like, comment, edit, delete and block across nodes")
    func scenario() async throws {
        let (a, b, c) = (try NetworkNode(name: "a"), try NetworkNode(name: "b"), try NetworkNode(name: "c"))
        defer { [a, b, c].forEach { $0.remove() } }
        for node in [a, b, c] { try await node.start() }
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let bob = try await b.node.accounts.create(username: "bob", email: "bob@b.test", password: "bob password")
        let carol = try await c.node.accounts.create(username: "carol", email: "carol@c.test", password: "carol password")

        // alice@A follows bob@B and carol@C, found through WebFinger.
        let bobOnA = try await a.node.remoteAccounts.resolve(username: "bob", domain: b.domain)
        let carolOnA = try await a.node.remoteAccounts.resolve(username: "carol", domain: c.domain)
        try await a.node.interactions.follow(bobOnA, by: alice)
        try await a.node.interactions.follow(carolOnA, by: alice)
        for target in [bobOnA, carolOnA] {
            try await eventually("A sees its follow of \(target.username) accepted") {
                try a.read { try Follow.filter(Column("target_account_id") == target.id && Column("state") == "accepted").fetchCount($0) } == 1
            }
        }
        #expect(try b.read { try Account.followersCount(of: bob.id, in: $0) } == 1)

        // bob posts a photo with a caption and a hashtag; it reaches alice's home timeline.
        let photo = try await b.node.database.writeSQL { db -> MediaAttachment in
            var media = MediaAttachment(accountId: bob.id)
            media.contentType = "image/jpeg"
            media.filePath = "photos/pier.jpg"
            media.width = 1200
            media.height = 800
            media.description = "The pier at dusk"
            media.blurhash = "LEHV6nWB2yk8pyo0adR*.7kCMdnj"
            return try media.inserted(db)
        }
        let post = try await b.node.posts.create(.init(text: "Sunset at the pier #sunset", mediaIds: [photo.id]), by: bob)
        try await eventually("bob's post in alice's home timeline") {
            try a.read { try HomeTimeline.page(readerId: alice.id, in: $0) }.contains { $0.uri == post.uri }
        }
        let copy = try #require(try a.read { try Post.filter(Column("uri") == post.uri).fetchOne($0) })
        #expect(copy.content.contains("Sunset at the pier"))
        #expect(copy.content.contains("sunset"))
        let copyMedia = try a.read { try MediaAttachment.filter(Column("post_id") == copy.id).fetchAll($0) }
        #expect(copyMedia.map(\.description) == ["The pier at dusk"])
        #expect(copyMedia.first?.width == 1200)
        #expect(copyMedia.first?.blurhash == "LEHV6nWB2yk8pyo0adR*.7kCMdnj")
        #expect(try a.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM post_hashtags ph JOIN hashtags h ON h.id = ph.hashtag_id WHERE ph.post_id = ? AND h.name = 'sunset'", arguments: [copy.id]) } == 1)

        // carol@C mentions alice, who does not follow her: A stores the mention and notifies alice.
        let greeting = try await c.node.posts.create(.init(text: "Lovely pier, @alice@\(a.domain)!"), by: carol)
        try await eventually("A notifies alice of carol's mention") {
            try a.read { try AccountNotification.filter(Column("account_id") == alice.id && Column("type") == "mention").fetchCount($0) } == 1
        }
        let greetingOnA = try #require(try a.read { try Post.filter(Column("uri") == greeting.uri).fetchOne($0) })
        #expect(try a.read { try Int64.fetchOne($0, sql: "SELECT account_id FROM mentions WHERE post_id = ?", arguments: [greetingOnA.id]) } == alice.id)

        // alice likes and comments; B shows the like count, the comment and bob's notifications.
        try await a.node.interactions.like(copy.id, by: alice)
        let comment = try await a.node.posts.create(.init(text: "Beautiful light!", inReplyToId: copy.id), by: alice)
        try await eventually("B counts alice's like") {
            try b.read { try Like.filter(Column("post_id") == post.id).fetchCount($0) } == 1
        }
        try await eventually("B stores alice's comment on bob's post") {
            try b.read { try Post.filter(Column("uri") == comment.uri).fetchOne($0)?.inReplyToId } == post.id
        }
        let notificationTypes = try b.read { try AccountNotification.filter(Column("account_id") == bob.id).fetchAll($0).map(\.type) }
        #expect(Set(notificationTypes) == [.follow, .favourite, .mention])

        // bob edits the caption; A shows the edit.
        _ = try await b.node.posts.edit(post.id, text: "Sunset at the pier, golden hour #sunset", by: bob)
        try await eventually("A shows bob's edit") {
            let edited = try a.read { try Post.filter(Column("uri") == post.uri).fetchOne($0) }
            return edited?.content.contains("golden hour") == true && edited?.editedAt != nil
        }

        // bob deletes; it is gone from A, timeline included.
        try await b.node.posts.delete(post.id, by: bob)
        try await eventually("A forgets bob's deleted post") {
            try a.read { try Post.filter(Column("uri") == post.uri).fetchCount($0) } == 0
        }
        #expect(try a.read { try HomeTimeline.page(readerId: alice.id, in: $0) }.allSatisfy { $0.uri != post.uri })

        // carol blocks alice: the follow ends on both nodes and carol's next post never reaches A.
        let aliceOnC = try #require(try c.read { try Account.withURI(alice.uri).fetchOne($0) })
        try await c.node.interactions.block(aliceOnC, by: carol)
        try await eventually("A records carol's block and drops the follow") {
            try a.read { try Follow.filter(Column("target_account_id") == carolOnA.id).fetchCount($0) } == 0
        }
        let hidden = try await c.node.posts.create(.init(text: "Only for my followers"), by: carol)
        try await eventually("C has nothing left to deliver") { try c.read { try Delivery.fetchCount($0) } == 0 }
        #expect(try a.read { try Post.filter(Column("uri") == hidden.uri).fetchCount($0) } == 0)
        for node in [a, b, c] { await node.stop() }
    }
}
