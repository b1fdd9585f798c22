import Foundation
import GRDB

// The benchmark's data tools, on SQLite files: BulkLoader writes generated rows into many
// tables, PageCursors and QueueProbe read them back.

/// Writes many rows into a fresh node database fast: one transaction, no journal, prepared
/// statements, and the secondary indexes and triggers of the bulk-loaded tables dropped while
/// loading and recreated after, exactly as the migrations defined them. For generated datasets
/// (`fednode bench`), never for a database a node is serving.
public final class BulkLoader {
    private let db: Database
    private var statements: [String: Statement] = [:]

    private init(_ db: Database) { self.db = db }

    /// Runs `body` against the database at `path` (already migrated), deferring the indexes and
    /// triggers of `tables` until it returns, and leaves the file in WAL mode as a node opens it.
    /// - Throws: What `body` throws, or a `DatabaseError`; nothing is committed then.
    public static func load(into path: String, deferringIndexesOn tables: [String], _ body: (BulkLoader) throws -> Void) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -262144")
            try db.inTransaction {
                let deferred = try Row.fetchAll(db, sql: """
                    SELECT type, name, sql FROM sqlite_master
                    WHERE tbl_name IN (\(tables.map { _ in "?" }.joined(separator: ", "))) AND sql IS NOT NULL AND type IN ('index', 'trigger')
                    """, arguments: StatementArguments(tables))
                for row in deferred {
                    let type: String = row["type"], name: String = row["name"]
                    try db.execute(sql: "DROP \(type == "index" ? "INDEX" : "TRIGGER") \(name)")
                }
                try body(BulkLoader(db))
                for row in deferred { try db.execute(sql: row["sql"] as String) }
                // The counter triggers of the deferred tables did not run: count what was loaded.
                try CounterRecount.rebuild(SQLSession(db))
                return .commit
            }
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
        }
        try queue.close()
    }

    /// Stores a node setting (domain, public URL, instance key).
    public func setting(_ key: String, _ value: String) throws {
        try run("INSERT OR REPLACE INTO node_settings(key, value) VALUES (?, ?)", [key, value])
    }

    /// Appends an account row; times are `SQLiteTime.text` strings.
    public func account(_ row: BulkAccount) throws {
        try run("""
            INSERT INTO accounts(id, username, domain, uri, url, display_name, inbox_url, shared_inbox_url, outbox_url,
              followers_url, following_url, public_key_id, public_key_pem, private_key_pem, created_at, updated_at, fetched_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [row.id, row.username, row.domain, row.uri, row.url, row.displayName, row.inboxUrl, row.sharedInboxUrl,
                  row.outboxUrl, row.followersUrl, row.followingUrl, row.publicKeyId, row.publicKeyPem, row.privateKeyPem,
                  row.createdAt, row.createdAt, row.fetchedAt])
    }

    /// Appends an accepted follow.
    public func acceptedFollow(id: Int64, follower: Int64, target: Int64, uri: String, createdAt: String) throws {
        try run("INSERT INTO follows(id, account_id, target_account_id, uri, state, created_at) VALUES (?, ?, ?, ?, 'accepted', ?)",
                [id, follower, target, uri, createdAt])
    }

    /// Appends an out-of-band OAuth app with a read token for `accountId` (`tokenHash` is the
    /// token's SHA-256 in hex, as the node stores tokens).
    public func readToken(appId: Int64, accountId: Int64, tokenHash: String, createdAt: String) throws {
        try run("""
            INSERT INTO oauth_apps(id, name, website, redirect_uris, scopes, client_id, client_secret, created_at)
            VALUES (?, 'fednode bench', NULL, 'urn:ietf:wg:oauth:2.0:oob', 'read', 'bench-client', 'bench-secret', ?)
            """, [appId, createdAt])
        try run("INSERT INTO oauth_tokens(id, app_id, account_id, token_hash, scopes, created_at) VALUES (?, ?, ?, ?, 'read', ?)",
                [appId + 1, appId, accountId, tokenHash, createdAt])
    }

    /// Appends a public remote post in English (`content` is HTML, as stored for remote posts).
    public func remotePost(id: Int64, uri: String, authorId: Int64, content: String, createdAt: String) throws {
        try run("""
            INSERT INTO posts(id, uri, url, account_id, local, content, visibility, language, created_at, updated_at)
            VALUES (?, ?, ?, ?, 0, ?, 'public', 'en', ?, ?)
            """, [id, uri, uri, authorId, content, createdAt, createdAt])
    }

    /// Appends a home-timeline row, as fan-out on write would have.
    public func homeEntry(reader: Int64, post: Int64, author: Int64) throws {
        try run("INSERT INTO home_timeline(account_id, post_id, author_id) VALUES (?, ?, ?)", [reader, post, author])
    }

    /// Stores a hashtag.
    public func hashtag(id: Int64, name: String, createdAt: String) throws {
        try run("INSERT INTO hashtags(id, name, created_at) VALUES (?, ?, ?)", [id, name, createdAt])
    }

    /// Tags a post.
    public func postHashtag(post: Int64, hashtag: Int64) throws {
        try run("INSERT INTO post_hashtags(post_id, hashtag_id) VALUES (?, ?)", [post, hashtag])
    }

    /// Records that `post` mentions `account` and gives `account` the `mention` notification.
    public func mention(notificationId: Int64, post: Int64, account: Int64, by author: Int64, createdAt: String) throws {
        try run("INSERT INTO mentions(post_id, account_id) VALUES (?, ?)", [post, account])
        try run("INSERT INTO notifications(id, account_id, from_account_id, type, post_id, dedupe_key, created_at) VALUES (?, ?, ?, 'mention', ?, ?, ?)",
                [notificationId, account, author, post, "mention:\(post):\(account)", createdAt])
    }

    private func run(_ sql: String, _ arguments: StatementArguments) throws {
        let statement: Statement
        if let cached = statements[sql] { statement = cached } else {
            statement = try db.makeStatement(sql: sql)
            statements[sql] = statement
        }
        try statement.execute(arguments: arguments)
    }
}

/// The columns of an account row the bulk loader writes.
public struct BulkAccount: Sendable {
    public var id: Int64, username: String, domain: String?, uri: String, url: String, displayName: String
    public var inboxUrl: String, sharedInboxUrl: String, outboxUrl: String, followersUrl: String, followingUrl: String
    public var publicKeyId: String?, publicKeyPem: String?, privateKeyPem: String?
    public var createdAt: String, fetchedAt: String?

    /// An account whose collection URLs hang off `uri`.
    public init(id: Int64, username: String, domain: String?, uri: String, url: String, displayName: String,
                sharedInboxUrl: String, publicKeyId: String?, publicKeyPem: String?, privateKeyPem: String?,
                createdAt: String, fetchedAt: String?) {
        (self.id, self.username, self.domain, self.uri, self.url, self.displayName) = (id, username, domain, uri, url, displayName)
        (inboxUrl, self.sharedInboxUrl, outboxUrl) = (uri + "/inbox", sharedInboxUrl, uri + "/outbox")
        (followersUrl, followingUrl) = (uri + "/followers", uri + "/following")
        (self.publicKeyId, self.publicKeyPem, self.privateKeyPem) = (publicKeyId, publicKeyPem, privateKeyPem)
        (self.createdAt, self.fetchedAt) = (createdAt, fetchedAt)
    }
}
