import Foundation
import GRDB
import Testing
@testable import Storage

/// `fednode migrate-data`: a node's data copied from SQLite into PostgreSQL and back, whole.
@Suite("Data migration between engines", .enabled(if: TestEngine.postgresURL != nil))
struct DataMigrationTests {
    /// Every row of every table, as values, in primary-key order.
    private func contents(_ database: NodeDatabase) throws -> [String: [[DatabaseValue]]] {
        let tables = try DataMigration.tables()
        return try database.readBlocking { tx in
            var contents: [String: [[DatabaseValue]]] = [:]
            for table in tables {
                let columns = table.columns.map { "\"\($0)\"" }.joined(separator: ", ")
                let order = table.key.map { "\"\($0)\"" }.joined(separator: ", ")
                contents[table.name] = try Row.fetchAll(tx.session, sql: "SELECT \(columns) FROM \"\(table.name)\" ORDER BY \(order)")
                    .map { row in table.columns.indices.map { row[$0] as DatabaseValue } }
            }
            return contents
        }
    }

    /// A small node: local and remote accounts, follows, a thread with a boost and likes,
    /// notifications, photos, hashtags, a report (an auto-incremented id) and settings; and 300
    /// more remote accounts, so a batch of rows holds more values than SQLite selects at once.
    private func populate(_ database: NodeDatabase) throws {
        try database.writeBlocking { tx in
            let alice = Account(username: "alice", domain: nil, uri: "https://local.example/users/alice")
            let bob = Account(username: "Bob", domain: "remote.example", uri: "https://remote.example/users/bob")
            let carol = Account(username: "carol", domain: nil, uri: "https://local.example/users/carol")
            for account in [alice, bob, carol] { try tx.accounts.insert(account) }
            for number in 0..<300 {
                try tx.accounts.insert(Account(username: "r\(number)", domain: "crowd.example", uri: "https://crowd.example/users/r\(number)"))
            }
            try tx.follows.insert(Follow(accountId: bob.id, targetAccountId: alice.id, uri: "https://remote.example/follows/1", state: .accepted))
            try tx.follows.insert(Follow(accountId: carol.id, targetAccountId: alice.id, uri: nil, state: .pending))
            let photo = Post(uri: "\(alice.uri)/statuses/1", accountId: alice.id, local: true)
            try tx.posts.insert(photo)
            try tx.posts.replaceHashtags(["Sunset", "sea"], of: photo.id)
            var media = MediaAttachment(accountId: alice.id, postId: photo.id)
            media.position = 0
            try tx.media.insert(media)
            var reply = Post(uri: "\(bob.uri)/statuses/9", accountId: bob.id, local: false)
            reply.inReplyToId = photo.id
            reply.inReplyToAccountId = alice.id
            try tx.posts.insert(reply)
            var boost = Post(uri: "\(carol.uri)/boosts/1", accountId: carol.id, local: true)
            boost.reblogOfId = photo.id
            try tx.posts.insert(boost)
            try tx.likes.add(Like(accountId: bob.id, postId: photo.id, uri: "https://remote.example/likes/1"))
            try tx.notifications.add(AccountNotification(accountId: alice.id, fromAccountId: bob.id, type: .favourite, postId: photo.id))
            _ = try tx.moderation.addReport(Report(accountId: alice.id, targetAccountId: bob.id, comment: "spam", category: "spam"))
        }
    }

    @Test("SQLite to PostgreSQL and back: every row of every table arrives unchanged, counters agree, new ids follow the copied ones")
    func roundTrip() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let sqlite = try TestEngine.sqlite.open(dir)
        try populate(sqlite)
        let postgres = try TestEngine.postgres.open(dir)

        let report = try DataMigration.copy(from: sqlite, to: postgres)
        #expect(report.totalRows > 20)
        let original = try contents(sqlite)
        #expect(try contents(postgres) == original)
        #expect(try postgres.readBlocking { try $0.statistics.counterMismatches() } == [])
        // The planner has the copied tables' statistics at once (`reltuples` is -1 until then).
        let estimated = try postgres.readBlocking { tx in
            try Double.fetchOne(tx.session, sql: "SELECT reltuples FROM pg_class WHERE relname = 'accounts' AND relkind = 'r'")
        }
        #expect(try #require(estimated) > 300)
        #expect(throws: StorageError.self, "a second copy into a database with data is refused") {
            try DataMigration.copy(from: sqlite, to: postgres)
        }

        // The copy is a working node database: triggers count again, identities continue.
        let reports = try postgres.writeBlocking { tx in
            let alice = try #require(try tx.accounts.find(uri: "https://local.example/users/alice"))
            let bob = try #require(try tx.accounts.find(uri: "https://remote.example/users/bob"))
            try tx.follows.insert(Follow(accountId: alice.id, targetAccountId: bob.id, uri: nil, state: .accepted))
            return try tx.moderation.addReport(Report(accountId: bob.id, targetAccountId: alice.id, comment: "again", category: "other"))
        }
        #expect(try postgres.readBlocking { try $0.statistics.counterMismatches() } == [])
        let firstReportId = try #require(original["reports"]?.first?.first.flatMap { Int64.fromDatabaseValue($0) })
        #expect(try #require(reports?.id) > firstReportId)

        // And back into a new SQLite file.
        let back = try NodeDatabase(path: dir.file("back.sqlite"))
        try DataMigration.copy(from: postgres, to: back)
        #expect(try contents(back) == (try contents(postgres)))
        #expect(try back.readBlocking { try $0.statistics.counterMismatches() } == [])
    }
}
