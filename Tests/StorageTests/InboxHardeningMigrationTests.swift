import Foundation
import GRDB
import Testing
@testable import Storage

/// The inbox-hardening migration on a database that already holds data.
@Suite("Migration: inbox hardening")
struct InboxHardeningMigrationTests {
    @Test("seen ids gain their origin, and deliveries to already-blocked domains are dropped")
    func migratesExistingRows() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let database = try NodeDatabase(path: dir.file("node.sqlite"), migrate: false)
        try Migrations.migrator.migrate(database.pool, upTo: "v2-client-api")
        try database.pool.write { db in
            try db.execute(sql: "INSERT INTO seen_activities(uri, type, outcome, seen_at) VALUES ('https://Masto.Example:8443/users/a#likes/1', 'Like', 'processed', '2026-01-01 00:00:00.000')")
            let alice = try Account(username: "alice", domain: nil, uri: "https://a.example/users/alice").inserted(db)
            for inbox in ["https://media.blocked.example/inbox", "https://blocked.example:8443/inbox", "https://fine.example/inbox"] {
                try Delivery.enqueue(activityUri: "https://a.example/1", payload: Data(), accountId: alice.id, inboxes: [inbox], in: SQLSession(db))
            }
            try db.execute(sql: "INSERT INTO domain_blocks(domain, created_at) VALUES ('blocked.example', '2026-01-01 00:00:00.000')")
        }
        #expect(try database.migrate().first == "v-inbox-hardening", "it runs first; later migrations may follow")
        let (seen, domains) = try database.pool.read { db in
            (try SeenActivity.fetchAll(db), try String.fetchAll(db, sql: "SELECT domain FROM delivery_queue"))
        }
        #expect(seen.map(\.origin) == ["masto.example:8443"])
        #expect(domains == ["fine.example"])

        // Blocking later drops what is queued at once, subdomains included.
        try database.pool.write { db in
            let alice = try #require(try Account.fetchOne(db))
            try Delivery.enqueue(activityUri: "https://a.example/2", payload: Data(), accountId: alice.id,
                                 inboxes: ["https://a.fine.example/inbox"], in: SQLSession(db))
            try DomainBlock(domain: "Fine.Example").insert(db)
        }
        #expect(try database.pool.read { try Delivery.fetchCount($0) } == 0)
    }
}
