import Foundation
import GRDB
import Signatures
import Storage

/// Generates (once per size, cached in the bench data directory) a node database with
/// `posts` posts by `BenchWorld.accountCount` remote accounts, one local reader following the
/// 1,000 keyed actors, and the reader's home timeline as fan-out on write would have built it.
/// Rows go in with prepared statements in one transaction, secondary indexes built afterwards.
public struct TimelineDatabase: Sendable {
    /// Posts in the database.
    public let posts: Int
    /// Path of the cached SQLite file.
    public let path: String

    /// Bumped whenever what `prepare` generates changes, so cached files are made again.
    static let generatorVersion = 1

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
            let queue = try DatabaseQueue(path: temporary)
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -262144")
                try db.inTransaction {
                    try withDeferredIndexes(db) { try fill(db, keys: keys) }
                    return .commit
                }
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            }
            try queue.close()
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

    /// Drops the secondary indexes of the bulk-loaded tables and the stream trigger on posts
    /// (its log is pruned by the node anyway), runs `body`, then recreates them as they were.
    private func withDeferredIndexes(_ db: Database, _ body: () throws -> Void) throws {
        let deferred = try Row.fetchAll(db, sql: """
            SELECT type, name, sql FROM sqlite_master
            WHERE tbl_name IN ('posts', 'home_timeline') AND sql IS NOT NULL AND type IN ('index', 'trigger')
            """)
        for row in deferred {
            let type: String = row["type"], name: String = row["name"]
            try db.execute(sql: "DROP \(type == "index" ? "INDEX" : "TRIGGER") \(name)")
        }
        try body()
        for row in deferred { try db.execute(sql: row["sql"] as String) }
    }

    private func fill(_ db: Database, keys: [RSAPrivateKey]) throws {
        try insertIdentity(db, keys: keys)
        try insertAccounts(db, keys: keys)
        try insertFollowsAndToken(db)
        try insertPosts(db)
    }

    private func insertIdentity(_ db: Database, keys: [RSAPrivateKey]) throws {
        let settings = ["domain": BenchWorld.localDomain, "public_url": BenchWorld.localBase,
                        "instance_private_key": keys[BenchWorld.keyedActorCount + 1].pkcs8PEM]
        for (key, value) in settings {
            try db.execute(sql: "INSERT OR REPLACE INTO node_settings(key, value) VALUES (?, ?)", arguments: [key, value])
        }
    }

    private func insertAccounts(_ db: Database, keys: [RSAPrivateKey]) throws {
        let created = SQLiteTime.text(millis: 1_704_067_200_000)
        let statement = try db.makeStatement(sql: """
            INSERT INTO accounts(id, username, domain, uri, url, display_name, inbox_url, shared_inbox_url, outbox_url,
              followers_url, following_url, public_key_id, public_key_pem, private_key_pem, created_at, updated_at, fetched_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for index in 0..<BenchWorld.accountCount {
            let uri = BenchWorld.actorURI(index)
            let base = "https://\(BenchWorld.domain(index))"
            let pem: String? = index < BenchWorld.keyedActorCount ? keys[index].publicKey.spkiPEM : nil
            try statement.execute(arguments: [
                BenchWorld.accountId(index), BenchWorld.username(index), BenchWorld.domain(index), uri,
                "\(base)/@\(BenchWorld.username(index))", "Photographer \(index)", uri + "/inbox", base + "/inbox",
                uri + "/outbox", uri + "/followers", uri + "/following", pem == nil ? nil : BenchWorld.keyId(index), pem, nil,
                created, created, created,
            ])
        }
        let reader = BenchWorld.readerURI
        let key = keys[BenchWorld.keyedActorCount]
        try statement.execute(arguments: [
            BenchWorld.readerId, BenchWorld.readerName, nil, reader, "\(BenchWorld.localBase)/@\(BenchWorld.readerName)",
            "Reader", reader + "/inbox", BenchWorld.localBase + "/inbox", reader + "/outbox", reader + "/followers",
            reader + "/following", reader + "#main-key", key.publicKey.spkiPEM, key.pkcs8PEM, created, created, nil,
        ])
    }

    private func insertFollowsAndToken(_ db: Database) throws {
        let created = SQLiteTime.text(millis: 1_704_153_600_000)
        let statement = try db.makeStatement(sql: """
            INSERT INTO follows(id, account_id, target_account_id, uri, state, created_at) VALUES (?, ?, ?, ?, 'accepted', ?)
            """)
        for index in 0..<BenchWorld.keyedActorCount {
            let id = (Int64(1_704_153_600_000) << 16) + Int64(index)
            try statement.execute(arguments: [id, BenchWorld.readerId, BenchWorld.accountId(index),
                                              "\(BenchWorld.localBase)/follows/\(id)", created])
        }
        let appId = Int64(1_704_153_600_000) << 16 | 0xFFFF
        try db.execute(sql: """
            INSERT INTO oauth_apps(id, name, website, redirect_uris, scopes, client_id, client_secret, created_at)
            VALUES (?, 'fednode bench', NULL, 'urn:ietf:wg:oauth:2.0:oob', 'read', 'bench-client', 'bench-secret', ?)
            """, arguments: [appId, created])
        try db.execute(sql: """
            INSERT INTO oauth_tokens(id, app_id, account_id, token_hash, scopes, created_at) VALUES (?, ?, ?, ?, 'read', ?)
            """, arguments: [appId + 1, appId, BenchWorld.readerId, BenchWorld.sha256Hex(BenchWorld.readerToken), created])
    }

    /// Posts spread evenly over 2025 with authors drawn by a seeded generator; posts by the
    /// reader's followees also get the reader's home-timeline row.
    private func insertPosts(_ db: Database) throws {
        let insertPost = try db.makeStatement(sql: """
            INSERT INTO posts(id, uri, url, account_id, local, content, visibility, language, created_at, updated_at)
            VALUES (?, ?, ?, ?, 0, ?, 'public', 'en', ?, ?)
            """)
        let insertEntry = try db.makeStatement(sql: "INSERT INTO home_timeline(account_id, post_id, author_id) VALUES (?, ?, ?)")
        var random = SeededGenerator(seed: 0x5EED_0001)
        let startMillis = Int64(BenchWorld.postsStart.timeIntervalSince1970 * 1000)
        let spacing = max(1, Int64(365 * 86_400_000) / Int64(posts))
        for index in 0..<posts {
            let author = Int(random.next() % UInt64(BenchWorld.accountCount))
            let millis = startMillis + Int64(index) * spacing
            let id = millis << 16 | Int64(index & 0xFFFF)
            let uri = "\(BenchWorld.actorURI(author))/statuses/\(id)"
            let time = SQLiteTime.text(millis: millis)
            try insertPost.execute(arguments: [id, uri, uri, BenchWorld.accountId(author), Self.caption(index, random: &random), time, time])
            if author < BenchWorld.keyedActorCount {
                try insertEntry.execute(arguments: [BenchWorld.readerId, id, BenchWorld.accountId(author)])
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
