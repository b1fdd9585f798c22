import Foundation
import GRDB
import Testing
@testable import Storage

/// The hand-written `init(row:)` of the records a page decodes (`Post`, `Account`,
/// `MediaAttachment`, `PreviewCard`, `AccountNotification`) and of `Delivery` and `InboxItem` read every column, through every
/// batch loader, and agree with the `Codable` decoding they replaced, partial rows included.
@Suite("Record row decoding")
struct RecordDecodingTests {
    // Whole milliseconds: SQLite keeps dates to the millisecond.
    private static let t0 = Date(timeIntervalSince1970: 1_700_000_000.125)

    /// An account with every column set to something other than its default.
    static func fullAccount() -> Account {
        var a = Account(username: "ada", domain: "remote.example", uri: "https://remote.example/users/ada", createdAt: t0)
        a.url = "https://remote.example/@ada"
        (a.displayName, a.firstName, a.lastName) = ("Ada L.", "Ada", "Lovelace")
        (a.note, a.noteSource, a.website) = ("<p>Engines</p>", "Engines", "https://ada.example")
        a.fields = [ProfileField(name: "GitHub", value: "https://github.com/ada"), ProfileField(name: "Née", value: "Byron")]
        (a.avatarUrl, a.headerUrl) = ("https://remote.example/a.png", "https://remote.example/h.png")
        (a.locked, a.discoverable, a.bot, a.actorType) = (true, false, true, "Service")
        (a.inboxUrl, a.sharedInboxUrl, a.outboxUrl) = ("\(a.uri)/inbox", "https://remote.example/inbox", "\(a.uri)/outbox")
        (a.followersUrl, a.followingUrl) = ("\(a.uri)/followers", "\(a.uri)/following")
        (a.publicKeyId, a.publicKeyPem, a.privateKeyPem) = ("\(a.uri)#main-key", "PUBLIC PEM", "PRIVATE PEM")
        (a.followersCount, a.followingCount, a.statusesCount) = (11, 12, 13)
        a.updatedAt = t0.addingTimeInterval(60)
        a.fetchedAt = t0.addingTimeInterval(120)
        return a
    }

    /// A comment by `author` on `parent` with every column set to something other than its default.
    static func fullPost(by author: Account, replyingTo parent: Post) -> Post {
        var p = Post(uri: "https://remote.example/notes/2", accountId: author.id, local: true, createdAt: t0.addingTimeInterval(5))
        p.url = "https://remote.example/@ada/2"
        (p.inReplyToId, p.inReplyToUri, p.inReplyToAccountId) = (parent.id, parent.uri, parent.accountId)
        (p.content, p.text, p.spoilerText, p.sensitive) = ("<p>Hi</p>", "Hi", "cw", true)
        (p.visibility, p.language) = (.unlisted, "en")
        p.editedAt = t0.addingTimeInterval(6)
        p.updatedAt = t0.addingTimeInterval(7)
        return p
    }

    /// A photo of `post` with every column set to something other than its default.
    static func fullMedia(of post: Post) -> MediaAttachment {
        var m = MediaAttachment(accountId: post.accountId, postId: post.id, createdAt: t0.addingTimeInterval(8))
        (m.position, m.type, m.contentType) = (2, "gifv", "image/png")
        (m.filePath, m.thumbnailPath, m.remoteUrl, m.previewRemoteUrl) = ("f/1.png", "t/1.jpg", "https://r.example/1", "https://r.example/p1")
        (m.thumbnailWidth, m.thumbnailHeight, m.width, m.height) = (40, 30, 400, 300)
        (m.description, m.focusX, m.focusY, m.blurhash, m.fileSize) = ("A cat", 0.25, -0.5, "LEHV6nWB", 12_345)
        return m
    }

    /// A card with every column set to something other than its default.
    static func fullCard() -> PreviewCard {
        var c = PreviewCard(url: "https://news.example/story", createdAt: t0.addingTimeInterval(9))
        (c.title, c.description, c.type, c.authorName, c.providerName) = ("Story", "About it", "photo", "Reporter", "News")
        (c.imageUrl, c.width, c.height) = ("https://news.example/i.jpg", 640, 480)
        return c
    }

    @Test("every column of a post, account, photo and card reads back through the page loaders")
    func fullRecordsRoundTrip() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let database = try NodeDatabase(path: dir.file("node.sqlite"))
        let author = Self.fullAccount()
        let parent = Post(uri: "https://remote.example/notes/1", accountId: author.id, local: false, createdAt: Self.t0)
        let post = Self.fullPost(by: author, replyingTo: parent)
        let media = Self.fullMedia(of: post)
        let card = Self.fullCard()
        try database.writeBlocking { tx in
            try tx.accounts.insert(author)
            try tx.posts.insert(parent)
            try tx.posts.insert(post)
            try tx.posts.addMention(post: post.id, account: author.id)
            try tx.media.insert(media)
            try tx.previewCards.attach(card, to: post.id)
        }
        try database.readBlocking { tx throws in
            #expect(try tx.accounts.find(ids: [author.id]) == [author])
            #expect(try tx.accounts.find(id: author.id) == author)
            #expect(try tx.posts.find(ids: [post.id]) == [post])
            #expect(try tx.posts.find(id: post.id) == post)
            let mentioned = MentionedAccount(id: author.id, username: author.username, domain: author.domain, uri: author.uri, url: author.url)
            #expect(try tx.posts.mentionedAccounts(ofPosts: [post.id]) == [post.id: [mentioned]])
            #expect(mentioned.acct == author.acct)
            #expect(try tx.media.attachments(ofPosts: [post.id]) == [post.id: [media]])
            #expect(try tx.media.attachments(of: post.id) == [media])
            #expect(try tx.previewCards.cards(ofPosts: [post.id]) == [post.id: card])
        }
    }

    @Test("the hand-written decoders agree with the Codable decoding, on whole and partial rows")
    func agreesWithCodable() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let database = try NodeDatabase(path: dir.file("node.sqlite"))
        let author = Self.fullAccount()
        let parent = Post(uri: "https://remote.example/notes/1", accountId: author.id, local: false, createdAt: Self.t0)
        let post = Self.fullPost(by: author, replyingTo: parent)
        try database.writeBlocking { tx in
            try tx.accounts.insert(author)
            try tx.posts.insert(parent)
            try tx.posts.insert(post)
            try tx.media.insert(Self.fullMedia(of: post))
            try tx.previewCards.attach(Self.fullCard(), to: post.id)
        }
        let notification = AccountNotification(accountId: author.id, fromAccountId: author.id, type: .followRequest, postId: post.id,
                                               createdAt: Self.t0)
        var delivery = Delivery(activityUri: "https://local.example/activities/1", accountId: author.id,
                                inboxUrl: "https://remote.example/inbox", domain: "remote.example", payload: Data("{}".utf8),
                                createdAt: Self.t0)
        (delivery.attempts, delivery.lastStatus, delivery.lastError) = (3, 503, "Service Unavailable")
        delivery.nextAttemptAt = Self.t0.addingTimeInterval(90)
        try database.pool.write { db in
            try notification.insert(db)
            try delivery.insert(db)
            var item = InboxItem(activityId: "https://remote.example/a/1", actorUri: author.uri, recipientAccountId: author.id,
                                 payload: Data("{}".utf8), receivedAt: Self.t0)
            (item.attempts, item.unfinishedAttempts, item.lastError, item.parkedAt) = (2, 1, "timed out", Self.t0.addingTimeInterval(3))
            try item.insert(db)
            // An app with every column set and one without its website; a token with every
            // column set and a client-credentials token with none of the optional ones.
            let app = OAuthApp(name: "Phanpy", website: "https://phanpy.example", redirectUris: "https://phanpy.example/cb\nurn:ietf:wg:oauth:2.0:oob",
                               scopes: "read write", clientId: "client-1", clientSecret: "secret-1", createdAt: Self.t0)
            try app.insert(db)
            try OAuthApp(name: "Bare", website: nil, redirectUris: "urn:ietf:wg:oauth:2.0:oob", scopes: "read", clientId: "client-2",
                         clientSecret: "secret-2", createdAt: Self.t0).insert(db)
            var token = OAuthToken(appId: app.id, accountId: author.id, tokenHash: "hash-1", refreshTokenHash: "refresh-1",
                                   scopes: "read write", createdAt: Self.t0, expiresAt: Self.t0.addingTimeInterval(3600))
            (token.revokedAt, token.lastUsedAt) = (Self.t0.addingTimeInterval(60), Self.t0.addingTimeInterval(30))
            try token.insert(db)
            try OAuthToken(appId: nil, accountId: nil, tokenHash: "hash-2", refreshTokenHash: nil, scopes: "read", createdAt: Self.t0).insert(db)
        }
        try database.pool.read { db throws in
            #expect(try AccountNotification.fetchOne(db, key: notification.id) == notification)
            try Self.expectSameDecoding(AccountNotification.self, db, "SELECT * FROM notifications")
            try Self.expectSameDecoding(Account.self, db, "SELECT 7 AS batch_post_id, * FROM accounts")
            try Self.expectSameDecoding(Post.self, db, "SELECT * FROM posts ORDER BY id")
            try Self.expectSameDecoding(MediaAttachment.self, db, "SELECT * FROM media_attachments")
            try Self.expectSameDecoding(PreviewCard.self, db, "SELECT * FROM preview_cards")
            try Self.expectSameDecoding(Delivery.self, db, "SELECT * FROM delivery_queue")
            try Self.expectSameDecoding(InboxItem.self, db, "SELECT * FROM inbox_queue")
            try Self.expectSameDecoding(OAuthApp.self, db, "SELECT * FROM oauth_apps ORDER BY id")
            try Self.expectSameDecoding(OAuthToken.self, db, "SELECT * FROM oauth_tokens ORDER BY id")
            // Optional columns left out read as nil; a required one left out throws, both ways.
            let partial = "SELECT id, uri, account_id, local, content, text, spoiler_text, sensitive, visibility, created_at, updated_at FROM posts"
            try Self.expectSameDecoding(Post.self, db, partial)
            let row = try #require(try Row.fetchOne(db, sql: partial))
            #expect(try Post(row: row).inReplyToId == nil)
            let withoutTime = try #require(try Row.fetchOne(db, sql: "SELECT id, uri, account_id, local FROM posts"))
            #expect(throws: (any Error).self) { try Post(row: withoutTime) }
            #expect(throws: (any Error).self) { try FetchableRecordDecoder().decode(Post.self, from: withoutTime) }
        }
    }

    /// Decodes every row of `sql` both ways and expects the same records.
    private static func expectSameDecoding<R: FetchableRecord & Decodable & Equatable>(_ type: R.Type, _ db: Database, _ sql: String) throws {
        let rows = try Row.fetchAll(db, sql: sql)
        #expect(!rows.isEmpty)
        for row in rows {
            #expect(try R(row: row) == (try FetchableRecordDecoder().decode(R.self, from: row)))
        }
    }
}
