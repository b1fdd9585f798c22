import Foundation
import GRDB
import Testing
@testable import Storage

/// The hand-written row encoders of the records written on the federation paths
/// (beside each record, as `Post+Row.swift`) write what GRDB's `Codable` encoding with the snake_case strategy
/// wrote, column for column, for records with every property set and with their defaults, and
/// name every column of their table.
@Suite("Record row encoding")
struct RecordEncodingTests {
    private static let t0 = Date(timeIntervalSince1970: 1_700_000_000.125)

    /// GRDB's `Codable` encoding of a record, with the key strategy every `Record` declares.
    private struct CodableEncoding<R: Storage.Record>: EncodableRecord, Encodable {
        let record: R
        func encode(to encoder: any Encoder) throws { try record.encode(to: encoder) }
        static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .convertToSnakeCase }
    }

    /// Expects the hand-written and the `Codable` encoding of `record` to agree, and to name
    /// exactly the columns of its table.
    private static func expectSameEncoding<R: Storage.Record>(_ record: R, columns: Set<String>, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let written = try record.databaseDictionary
        let codable = try CodableEncoding(record: record).databaseDictionary
        #expect(written == codable, "\(R.self)", sourceLocation: sourceLocation)
        #expect(Set(written.keys) == columns, "\(R.self)", sourceLocation: sourceLocation)
    }

    @Test("each hand-written encoder agrees with the Codable encoding and names every column")
    func agreesWithCodable() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let database = try NodeDatabase(path: dir.file("node.sqlite"))
        let columns: (String) throws -> Set<String> = { table in
            try database.pool.read { db in Set(try db.columns(in: table).map(\.name)) }
        }
        // The queues' claim columns are written by the claiming statements only; the inbox
        // queue's domain is generated from the actor id.
        let claims: Set<String> = ["claimed_by", "claimed_until"]
        let author = RecordDecodingTests.fullAccount()
        let parent = Post(uri: "https://remote.example/notes/1", accountId: author.id, local: false, createdAt: Self.t0)
        let post = RecordDecodingTests.fullPost(by: author, replyingTo: parent)
        for record in [parent, post] { try Self.expectSameEncoding(record, columns: columns("posts")) }
        for record in [RecordDecodingTests.fullMedia(of: post), MediaAttachment(accountId: author.id, createdAt: Self.t0)] {
            try Self.expectSameEncoding(record, columns: columns("media_attachments"))
        }
        for record in [AccountNotification(accountId: 1, fromAccountId: 2, type: .followRequest, postId: 3, createdAt: Self.t0),
                       AccountNotification(accountId: 1, fromAccountId: 2, type: .follow, postId: nil, createdAt: Self.t0)] {
            try Self.expectSameEncoding(record, columns: columns("notifications"))
        }
        try Self.expectSameEncoding(PostMention(postId: 1, accountId: 2), columns: columns("mentions"))
        try Self.expectSameEncoding(PostHashtag(postId: 1, hashtagId: 2), columns: columns("post_hashtags"))
        try Self.expectSameEncoding(Hashtag(name: "Photography", createdAt: Self.t0), columns: columns("hashtags"))
        for uri in ["https://remote.example/likes/1", nil] {
            try Self.expectSameEncoding(Like(accountId: 1, postId: 2, uri: uri, createdAt: Self.t0), columns: columns("likes"))
            try Self.expectSameEncoding(Follow(accountId: 1, targetAccountId: 2, uri: uri, state: .pending, createdAt: Self.t0),
                                        columns: columns("follows"))
        }
        try Self.expectSameEncoding(HomeTimelineEntry(accountId: 1, postId: 2, authorId: 3), columns: columns("home_timeline"))
        var item = InboxItem(activityId: "https://remote.example/a/1", actorUri: author.uri, recipientAccountId: 4,
                             payload: Data(#"{"type":"Create"}"#.utf8), receivedAt: Self.t0)
        try Self.expectSameEncoding(item, columns: columns("inbox_queue").subtracting(claims + ["domain"]))
        (item.attempts, item.unfinishedAttempts, item.lastError) = (3, 1, "timed out")
        (item.parkedAt, item.availableAt) = (Self.t0.addingTimeInterval(5), Self.t0.addingTimeInterval(60))
        try Self.expectSameEncoding(item, columns: columns("inbox_queue").subtracting(claims + ["domain"]))
        for (type, outcome) in [("Create", "processed"), (nil, nil)] as [(String?, String?)] {
            try Self.expectSameEncoding(SeenActivity(origin: "remote.example", uri: "https://remote.example/a/1", type: type, outcome: outcome,
                                                     seenAt: Self.t0), columns: columns("seen_activities"))
        }
        for postId in [5, nil] as [Int64?] {
            try Self.expectSameEncoding(OutboxActivity(uri: "https://local.example/a/1", accountId: 1, type: "Create", postId: postId,
                                                       payload: Data("{}".utf8), createdAt: Self.t0), columns: columns("outbox_activities"))
        }
        var delivery = Delivery(activityUri: "https://local.example/a/1", accountId: 1, inboxUrl: "https://remote.example/inbox",
                                domain: "remote.example", payload: Data("{}".utf8), createdAt: Self.t0)
        try Self.expectSameEncoding(delivery, columns: columns("delivery_queue").subtracting(claims))
        (delivery.attempts, delivery.lastStatus, delivery.lastError) = (2, 503, "Service Unavailable")
        delivery.nextAttemptAt = Self.t0.addingTimeInterval(90)
        try Self.expectSameEncoding(delivery, columns: columns("delivery_queue").subtracting(claims))
        var domain = DeliveryDomain(domain: "remote.example")
        try Self.expectSameEncoding(domain, columns: columns("delivery_domains"))
        (domain.failingSince, domain.lastFailureAt, domain.lastSuccessAt, domain.unavailable) =
            (Self.t0, Self.t0.addingTimeInterval(1), Self.t0.addingTimeInterval(2), true)
        try Self.expectSameEncoding(domain, columns: columns("delivery_domains"))
    }

    @Test("records written through the hand-written encoders read back whole")
    func roundTrip() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let database = try NodeDatabase(path: dir.file("node.sqlite"))
        let author = RecordDecodingTests.fullAccount()
        let parent = Post(uri: "https://remote.example/notes/1", accountId: author.id, local: false, createdAt: Self.t0)
        let post = RecordDecodingTests.fullPost(by: author, replyingTo: parent)
        let media = RecordDecodingTests.fullMedia(of: post)
        var item = InboxItem(activityId: nil, actorUri: author.uri, recipientAccountId: nil, payload: Data([0, 1, 2]), receivedAt: Self.t0)
        item.lastError = "boom"
        try database.writeBlocking { tx in
            try tx.accounts.insert(author)
            try tx.posts.insert(parent)
            try tx.posts.insert(post)
            try tx.media.insert(media)
            try item.insert(tx.session)
        }
        try database.pool.read { db throws in
            #expect(try Post.fetchOne(db, key: post.id) == post)
            #expect(try MediaAttachment.fetchOne(db, key: media.id) == media)
            #expect(try InboxItem.fetchOne(db, key: item.id) == item)
            #expect(try InboxItem(row: try #require(try Row.fetchOne(db, sql: "SELECT * FROM inbox_queue"))) == item)
        }
    }
}
