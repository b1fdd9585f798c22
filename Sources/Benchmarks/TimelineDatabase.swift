import Foundation
import Signatures
import Storage

/// Generates (once per size, cached in the bench data directory) a node database with
/// `posts` posts by `BenchWorld.accountCount` remote accounts, one local reader following the
/// 1,000 keyed actors, and the reader's home timeline as fan-out on write would have built it.
/// Every post carries `BenchWorld.hashtag`; every tenth post of a followed actor mentions the
/// reader (a notification); one actor has `BenchWorld.popularFollowers` followers, and it and
/// a quiet actor write every hundredth post, so both profiles have full pages at every size.
/// Rows go in with prepared statements in one transaction, secondary indexes built afterwards.
public struct TimelineDatabase: Sendable {
    /// Posts in the database.
    public let posts: Int
    /// Path of the cached SQLite file.
    public let path: String

    /// Bumped whenever what `prepare` generates changes, so cached files are made again.
    static let generatorVersion = 2

    /// The database of `posts` posts under `directory`. The cache is keyed by the schema (the
    /// last migration) too: a database generated before a new migration is generated again.
    public init(posts: Int, directory: String) {
        self.posts = posts
        let schema = (NodeDatabase.knownMigrations.last ?? "none").filter { $0.isLetter || $0.isNumber || $0 == "-" }
        self.path = (directory as NSString)
            .appendingPathComponent("timeline-\(posts)-\(schema)-g\(Self.generatorVersion)/fednode.sqlite")
    }

    /// Whether the cached file exists (a finished generation renames it into place last).
    public var exists: Bool { FileManager.default.fileExists(atPath: path) }

    /// Generates the file unless it is cached.
    /// - Parameter keys: `BenchWorld.keyCount` keys: the actors', then the reader's and the
    ///   instance actor's.
    /// - Throws: `BenchError.setup` when generation fails.
    public func prepare(keys: [RSAPrivateKey], log: (String) -> Void) throws(BenchError) {
        if exists { return }
        let started = MonotonicClock.now()
        let temporary = path + ".partial"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: temporary + suffix) }
        do {
            try createSchema(at: temporary)
            try BulkLoader.load(into: temporary, deferringIndexesOn: ["posts", "home_timeline", "post_hashtags", "mentions", "notifications", "follows"]) { try fill($0, keys: keys) }
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.moveItem(atPath: temporary, toPath: path)
        } catch { throw .setup("generating \(path): \(error)") }
        log("generated \(posts) posts in \(String(format: "%.1f", MonotonicClock.seconds(from: started, to: MonotonicClock.now()))) s -> \(path)")
    }

    /// Copies the cached file to `directory/fednode.sqlite` for a run that writes to it.
    public func copy(to directory: String) throws(BenchError) {
        let target = (directory as NSString).appendingPathComponent("fednode.sqlite")
        do {
            try? FileManager.default.removeItem(atPath: directory)
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: path, toPath: target)
        } catch { throw .setup("copying \(path): \(error)") }
    }

    /// The node's own migrations make the schema, so it is exactly what `fednode serve` expects.
    private func createSchema(at path: String) throws {
        _ = try NodeDatabase(path: path)
    }

    private func fill(_ loader: BulkLoader, keys: [RSAPrivateKey]) throws {
        try loader.setting("domain", BenchWorld.localDomain)
        try loader.setting("public_url", BenchWorld.localBase)
        try loader.setting("instance_private_key", keys[BenchWorld.keyedActorCount + 1].pkcs8PEM)
        try insertAccounts(loader, keys: keys)
        try insertFollowsAndToken(loader)
        try insertPopularFollowers(loader)
        try insertPosts(loader)
    }

    /// `BenchWorld.popularFollowers` remote accounts (keyless, on 100 domains of their own), each
    /// following the popular actor.
    private func insertPopularFollowers(_ loader: BulkLoader) throws {
        let created = SQLiteTime.text(millis: 1_704_240_000_000)
        let target = BenchWorld.accountId(BenchWorld.popularIndex)
        for index in 0..<BenchWorld.popularFollowers {
            let (id, domain, name) = (BenchWorld.accountId(BenchWorld.accountCount + 1 + index), "f\(index % 100).bench.example", "f\(index)")
            let uri = "https://\(domain)/users/\(name)"
            try loader.account(BulkAccount(
                id: id, username: name, domain: domain, uri: uri, url: "https://\(domain)/@\(name)", displayName: "Follower \(index)",
                sharedInboxUrl: "https://\(domain)/inbox", publicKeyId: nil, publicKeyPem: nil, privateKeyPem: nil, createdAt: created, fetchedAt: created))
            let followId = (Int64(1_704_240_000_000) << 16) + Int64(index)
            try loader.acceptedFollow(id: followId, follower: id, target: target, uri: "\(uri)/follows/\(followId)", createdAt: created)
        }
    }

    private func insertAccounts(_ loader: BulkLoader, keys: [RSAPrivateKey]) throws {
        let created = SQLiteTime.text(millis: 1_704_067_200_000)
        for index in 0..<BenchWorld.accountCount {
            let uri = BenchWorld.actorURI(index)
            let base = "https://\(BenchWorld.domain(index))"
            let pem: String? = index < BenchWorld.keyedActorCount ? keys[index].publicKey.spkiPEM : nil
            try loader.account(BulkAccount(
                id: BenchWorld.accountId(index), username: BenchWorld.username(index), domain: BenchWorld.domain(index), uri: uri,
                url: "\(base)/@\(BenchWorld.username(index))", displayName: "Photographer \(index)", sharedInboxUrl: base + "/inbox",
                publicKeyId: pem == nil ? nil : BenchWorld.keyId(index), publicKeyPem: pem, privateKeyPem: nil,
                createdAt: created, fetchedAt: created))
        }
        let reader = BenchWorld.readerURI
        let key = keys[BenchWorld.keyedActorCount]
        try loader.account(BulkAccount(
            id: BenchWorld.readerId, username: BenchWorld.readerName, domain: nil, uri: reader,
            url: "\(BenchWorld.localBase)/@\(BenchWorld.readerName)", displayName: "Reader", sharedInboxUrl: BenchWorld.localBase + "/inbox",
            publicKeyId: reader + "#main-key", publicKeyPem: key.publicKey.spkiPEM, privateKeyPem: key.pkcs8PEM,
            createdAt: created, fetchedAt: nil))
    }

    private func insertFollowsAndToken(_ loader: BulkLoader) throws {
        let created = SQLiteTime.text(millis: 1_704_153_600_000)
        for index in 0..<BenchWorld.keyedActorCount {
            let id = (Int64(1_704_153_600_000) << 16) + Int64(index)
            try loader.acceptedFollow(id: id, follower: BenchWorld.readerId, target: BenchWorld.accountId(index),
                                      uri: "\(BenchWorld.localBase)/follows/\(id)", createdAt: created)
        }
        let appId = Int64(1_704_153_600_000) << 16 | 0xFFFF
        try loader.readToken(appId: appId, accountId: BenchWorld.readerId, tokenHash: BenchWorld.sha256Hex(BenchWorld.readerToken),
                             createdAt: created)
    }

    /// Posts spread evenly over 2025 with authors drawn by a seeded generator; posts by the
    /// reader's followees also get the reader's home-timeline row.
    private func insertPosts(_ loader: BulkLoader) throws {
        var random = SeededGenerator(seed: 0x5EED_0001)
        let startMillis = Int64(BenchWorld.postsStart.timeIntervalSince1970 * 1000)
        let spacing = max(1, Int64(365 * 86_400_000) / Int64(posts))
        let hashtagId = Int64(1_704_067_200_000) << 16
        try loader.hashtag(id: hashtagId, name: BenchWorld.hashtag, createdAt: SQLiteTime.text(millis: 1_704_067_200_000))
        for index in 0..<posts {
            let drawn = Int(random.next() % UInt64(BenchWorld.accountCount))
            let author = index % 100 == 0 ? BenchWorld.popularIndex : index % 100 == 50 ? BenchWorld.quietIndex : drawn
            let millis = startMillis + Int64(index) * spacing
            let id = millis << 16 | Int64(index & 0xFFFF)
            let uri = "\(BenchWorld.actorURI(author))/statuses/\(id)"
            let time = SQLiteTime.text(millis: millis)
            try loader.remotePost(id: id, uri: uri, authorId: BenchWorld.accountId(author), content: Self.caption(index, random: &random), createdAt: time)
            try loader.postHashtag(post: id, hashtag: hashtagId)
            if author < BenchWorld.keyedActorCount {
                try loader.homeEntry(reader: BenchWorld.readerId, post: id, author: BenchWorld.accountId(author))
                if index % 10 == 3 {
                    try loader.mention(notificationId: id, post: id, account: BenchWorld.readerId, by: BenchWorld.accountId(author), createdAt: time)
                }
            }
        }
    }

    private static let subjects = ["harbour", "old town", "forest path", "market", "coastline", "rooftops", "night tram", "river"]
    private static let moods = ["morning light", "fog", "golden hour", "rain", "first snow", "long exposure"]

    /// A caption like the ones photo posts carry, with a hashtag (HTML, as stored for remote posts).
    static func caption(_ index: Int, random: inout SeededGenerator) -> String {
        let subject = subjects[Int(random.next() % UInt64(subjects.count))]
        let mood = moods[Int(random.next() % UInt64(moods.count))]
        return "<p>The \(subject) in \(mood), frame \(index). <a href=\"https://bench.example/tags/photography\" class=\"mention hashtag\" rel=\"tag\">#<span>photography</span></a></p>"
    }
}
