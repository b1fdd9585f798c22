import Foundation
import GRDB
import Testing
@testable import Storage

@Suite("Migrations")
struct MigrationTests {
    static let expectedTables: Set<String> = [
        "node_settings", "accounts", "credentials", "posts", "media_attachments", "hashtags", "post_hashtags",
        "mentions", "tombstones", "follows", "likes", "blocks", "domain_blocks", "home_timeline",
        "notifications", "inbox_queue", "seen_activities", "outbox_activities", "delivery_queue",
        "delivery_domains", "oauth_apps", "oauth_codes", "oauth_tokens",
    ]

    @Test("an empty database gets the whole schema, in WAL mode")
    func createsSchema() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let database = try NodeDatabase(path: dir.file("node.sqlite"))
        let (tables, journal) = try database.pool.read { db in
            (Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")),
             try String.fetchOne(db, sql: "PRAGMA journal_mode"))
        }
        #expect(Self.expectedTables.isSubset(of: tables))
        #expect(journal == "wal")
    }

    @Test("reopening applies nothing and keeps the data")
    func reopenIsNoOp() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("node.sqlite")
        do {
            let database = try NodeDatabase(path: path, migrate: false)
            #expect(try database.migrate() == NodeDatabase.knownMigrations)
            try database.pool.write { db in
                try Account(username: "alice", domain: nil, uri: "https://a.example/users/alice").insert(db)
            }
        }
        let reopened = try NodeDatabase(path: path, migrate: false)
        #expect(try reopened.migrate().isEmpty)
        let names = try reopened.pool.read { try Account.fetchAll($0).map(\.username) }
        #expect(names == ["alice"])
    }

    @Test("an unwritable path is a clear error, not a crash")
    func unwritablePath() {
        #expect(throws: StorageError.self) { try NodeDatabase(path: "/proc/fednode/nope/node.sqlite") }
    }
}
