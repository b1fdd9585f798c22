@testable import Core
import Foundation
import GRDB
import Storage
import Testing
import TestSupport
@testable import FedNode

/// The inbox queue survives handlers that kill the process: each attempt is counted durably
/// before its handler runs, and an item whose attempts keep dying is parked for the admin
/// instead of killing the node at every start.
@Suite("Inbox crash safety", .serialized)
struct InboxCrashSafetyTests {
    @Test("an attempt is counted in the database before its handler's work is done")
    func attemptCountedBeforeProcessing() async throws {
        let (a, origin) = (try NetworkNode(name: "a"), try SlowOrigin())
        defer { a.remove() }
        try await a.start()
        try await origin.start(client: a.node.httpClient)
        defer { Task { await origin.stop() } }
        let actor = origin.actor("slow")
        let create = """
            {"@context":"https://www.w3.org/ns/activitystreams","id":"\(actor)/statuses/1/activity","type":"Create",
             "actor":"\(actor)","to":["https://www.w3.org/ns/activitystreams#Public"],"object":"\(actor)/statuses/1"}
            """
        #expect(try await a.node.httpClient.execute(try origin.signedPost(create, from: "slow", to: "http://\(a.domain)/inbox")).status == 202)
        try await eventually("A's handler is fetching the post") { origin.held == 1 }
        let row = try #require(try a.read { try InboxItem.fetchOne($0) })
        #expect(row.unfinishedAttempts == 1, "the running attempt is already on disk")
        #expect(origin.answered == 0)

        origin.release()
        try await eventually("A stored the post and dropped the queue row") {
            try a.read { try Post.filter(Column("uri") == actor + "/statuses/1").fetchCount($0) == 1 && InboxItem.fetchCount($0) == 0 }
        }
        await origin.stop()
        await a.stop()
    }

    @Test("an item that died with the node three times is parked and listed; the rest is processed; `inbox retry` requeues it")
    func poisonItemIsParked() async throws {
        let (a, b) = (try NetworkNode(name: "a"), try NetworkNode(name: "b"))
        defer { [a, b].forEach { $0.remove() } }
        try await a.start()
        try await b.start()
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let bob = try await b.node.accounts.create(username: "bob", email: "bob@b.test", password: "bob password")
        let bobOnA = try await a.node.remoteAccounts.resolve(username: "bob", domain: b.domain)
        _ = try await a.node.interactions.follow(bobOnA, by: alice)
        try await eventually("follow accepted") {
            try a.read { try Follow.filter(Column("state") == "accepted").fetchCount($0) } == 1
        }
        // A accepts without processing; its queue then holds bob's two Creates.
        try await a.restart(workers: false)
        let poison = try await b.node.posts.create(.init(text: "the one that kills"), by: bob)
        let fine = try await b.node.posts.create(.init(text: "the one that is fine"), by: bob)
        do { try await eventually("A queued both Creates") {
            // On a loaded machine a delivery may have met a slow key fetch (503) and wait for its
            // retry: make B's queued deliveries due now.
            try await b.node.database.writeSQL { try $0.execute(sql: "UPDATE delivery_queue SET next_attempt_at = ?", arguments: [Date()]) }
            b.node.deliverySignal.notify()
            // Both Creates, whatever else (an earlier activity left unprocessed by the restart) waits.
            let queued = try a.read { try InboxItem.fetchAll($0) }.map { String(decoding: $0.payload, as: UTF8.self) }
            return [poison.uri, fine.uri].allSatisfy { uri in queued.contains { $0.contains(uri) } }
        } } catch {
            // What B's deliveries met, for the failure report.
            let rows = try await b.node.database.readSQL { db in
                try Row.fetchAll(db, sql: "SELECT attempts, last_status, last_error, next_attempt_at FROM delivery_queue")
            }
            Issue.record("B's queue: \(rows); A's inbox: \(try a.read { try InboxItem.fetchCount($0) })")
            throw error
        }
        // What three attempts that each died with the process leave behind.
        let poisonItem = try #require(try a.read { try InboxItem.fetchAll($0) }.first {
            String(decoding: $0.payload, as: UTF8.self).contains(poison.uri)
        })
        try await a.node.database.writeSQL { db in
            try db.execute(sql: "UPDATE inbox_queue SET unfinished_attempts = 3 WHERE id = ?", arguments: [poisonItem.id])
        }

        try await a.restart()
        try await eventually("A processed the other Create") {
            try a.read { try HomeTimeline.page(readerId: alice.id, in: $0) }.contains { $0.uri == fine.uri }
        }
        let parked = try a.read { try InboxQueue.parked(in: $0) }
        #expect(parked.map(\.id) == [poisonItem.id])
        #expect(parked.first?.lastError?.contains("interrupted 3 times") == true)
        #expect(try a.read { try Post.filter(Column("uri") == poison.uri).fetchCount($0) } == 0)

        let listed = try CommandLineTool.run(["inbox", "parked", "--data-dir", a.dataDirectory] + a.databaseArguments)
        #expect(listed.status == 0)
        #expect(listed.stdout.contains("\(poisonItem.id)") && listed.stdout.contains("interrupted 3 times"))
        let retried = try CommandLineTool.run(["inbox", "retry", "\(poisonItem.id)", "--data-dir", a.dataDirectory] + a.databaseArguments)
        #expect(retried.status == 0, "\(retried.stderr)")
        try await eventually("the requeued item was processed by the running node") {
            try a.read { try HomeTimeline.page(readerId: alice.id, in: $0) }.contains { $0.uri == poison.uri }
        }
        #expect(try CommandLineTool.run(["inbox", "retry", "\(poisonItem.id)", "--data-dir", a.dataDirectory] + a.databaseArguments).status != 0,
                "nothing parked is left to retry")
        await a.stop()
        await b.stop()
    }
}

/// Runs the `fednode` executable built beside the tests.
enum CommandLineTool {
    static func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("fednode")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let executable = FileManager.default.isExecutableFile(atPath: beside.path) ? beside : root.appendingPathComponent(".build/debug/fednode")
        return try ChildProcess.run(executable.path, arguments)
    }
}
