@testable import Core
import Foundation
import GRDB
import HummingbirdTesting
import Storage
import Testing
import TestSupport
@testable import FedNode

/// `fednode backup` / `restore` and `/readyz`: what an operator relies on to keep a node's data
/// and to route traffic only to a node that keeps up.
@Suite(.enabled(if: PostgresTestDatabase.url == nil, "backups copy SQLite files")) struct BackupTests {
    /// Counts and the rows that must come together with every post (written in its transaction).
    private struct Snapshot: Equatable {
        var posts: [Int64]
        var postsWithoutCreate: Int
        var postsWithoutHashtag: Int
        var accounts: Int
    }

    private static func snapshot(of path: String) throws -> Snapshot {
        var configuration = Configuration()
        configuration.readonly = true
        return try DatabaseQueue(path: path, configuration: configuration).read { db in
            Snapshot(
                posts: try Int64.fetchAll(db, sql: "SELECT id FROM posts ORDER BY id"),
                postsWithoutCreate: try Int.fetchOne(db, sql: """
                    SELECT COUNT(*) FROM posts p WHERE NOT EXISTS
                      (SELECT 1 FROM outbox_activities o WHERE o.post_id = p.id AND o.type = 'Create')
                    """) ?? -1,
                postsWithoutHashtag: try Int.fetchOne(db, sql: """
                    SELECT COUNT(*) FROM posts p WHERE NOT EXISTS (SELECT 1 FROM post_hashtags h WHERE h.post_id = p.id)
                    """) ?? -1,
                accounts: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM accounts") ?? -1)
        }
    }

    @Test("a backup taken while posts are being written is one consistent instant, and restoring it brings back exactly that")
    func backupUnderLoad() async throws {
        let test = try TestNode.make()
        defer { test.remove() }
        let node = test.node
        let alice = try await node.accounts.create(username: "alice", email: "alice@example.test", password: "correct horse battery")
        let backupPath = test.dataDirectory + "/backups/under-load.sqlite"
        let writers = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<4 {
                    group.addTask {
                        for index in 0..<40 {
                            _ = try await node.posts.create(.init(text: "Frame \(writer)-\(index) #snapshot"), by: alice)
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        // Back up once some posts exist and while the writers are still going.
        while try await node.database.read({ try $0.posts.count(by: alice.id) }) < 20 { try await Task.sleep(for: .milliseconds(5)) }
        let summary = try await node.database.backup(to: backupPath)
        try await writers.value
        #expect(summary.bytes > 0)
        #expect(summary.schema == NodeDatabase.knownMigrations.last)

        let copied = try Self.snapshot(of: backupPath)
        let live = try Self.snapshot(of: node.configuration.databasePath)
        #expect(live.posts.count == 160)
        #expect(copied.posts.count >= 20 && copied.posts.count <= 160)
        // Nothing half-written: every post in the copy has the rows its transaction wrote with it.
        #expect(copied.postsWithoutCreate == 0 && copied.postsWithoutHashtag == 0)
        #expect(Set(copied.posts).isSubset(of: Set(live.posts)))
        #expect(try await node.database.integrityProblems().isEmpty)

        // A quiet backup equals the live database; restoring it into a new directory gives a
        // node that opens, migrates and serves what was backed up.
        let quietPath = test.dataDirectory + "/backups/quiet.sqlite"
        _ = try await node.database.backup(to: quietPath)
        #expect(try Self.snapshot(of: quietPath) == live)
        let restoredDirectory = test.dataDirectory + "/restored"
        let restored = try NodeDatabase.restore(from: backupPath, to: restoredDirectory + "/fednode.sqlite")
        #expect(restored.bytes > 0)
        let reopened = try Node(configuration: TestNode.configuration(domain: "social.test", dataDirectory: restoredDirectory),
                                logger: TestNode.logger)
        #expect(try await reopened.database.read { try $0.posts.count(by: alice.id) } == copied.posts.count)
        #expect(try Self.snapshot(of: restoredDirectory + "/fednode.sqlite") == copied)
    }

    @Test("restore refuses what is not an intact FedNode backup, and leaves the database alone")
    func restoreRefusesBadFiles() async throws {
        let test = try TestNode.make()
        defer { test.remove() }
        _ = try await test.node.accounts.create(username: "keep", email: "keep@example.test", password: "correct horse battery")
        let target = test.node.configuration.databasePath
        let notSQLite = test.dataDirectory + "/notes.txt"
        try Data("just some text, not a database".utf8).write(to: URL(fileURLWithPath: notSQLite))
        let foreign = test.dataDirectory + "/other.sqlite"
        try await DatabaseQueue(path: foreign).write { try $0.execute(sql: "CREATE TABLE things (id INTEGER PRIMARY KEY)") }
        for (file, mention) in [(notSQLite, "SQLite"), (foreign, "not a FedNode database"), (test.dataDirectory + "/missing", "no backup file")] {
            let error = #expect(throws: StorageError.self) { try NodeDatabase.restore(from: file, to: target) }
            #expect(error?.description.contains(mention) == true, "\(file): \(String(describing: error))")
        }
        #expect(try await test.node.database.read { try $0.accounts.findLocal(username: "keep") } != nil)
    }

    @Test("readyz is 200 with the queue depths when the workers run and the database takes writes, 503 naming what is missing otherwise")
    func readiness() async throws {
        let test = try TestNode.make()
        defer { test.remove() }
        try await buildApplication(node: test.node).test(.live) { client in
            var answer = try await client.execute(uri: "/readyz", method: .get)
            for _ in 0..<100 where answer.status != .ok {  // the workers start with the application
                try await Task.sleep(for: .milliseconds(20))
                answer = try await client.execute(uri: "/readyz", method: .get)
            }
            #expect(answer.status == .ok)
            #expect(answer.json?["status"] as? String == "ready")
            #expect((answer.json?["queues"] as? [String: Any])?.isEmpty == false)
        }
        try await buildApplication(node: test.node, runWorkers: false).test(.router) { client in
            let answer = try await client.execute(uri: "/readyz", method: .get)
            #expect(answer.status == .serviceUnavailable)
            let problems = answer.json?["problems"] as? [String] ?? []
            #expect(problems.contains("inbox worker not running") && problems.contains("delivery worker not running"))
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
        }
    }
}
