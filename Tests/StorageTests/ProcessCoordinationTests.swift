import Foundation
import GRDB
import Synchronization
import Testing
@testable import Storage

/// What several processes on one database share: rate-limit windows and scheduled jobs' turns
/// (both engines), and on PostgreSQL the claims on queued work, the streaming log's order and
/// change announcements, each checked with two `NodeDatabase`s on one database, as two
/// `fednode` processes would hold them.
/// A value tasks share (a `Mutex` cannot be captured by the tasks of a group itself).
private final class Shared<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ value: Value) { self.value = Mutex(value) }
    func with<T>(_ body: (inout Value) -> T) -> T { value.withLock { body(&$0) } }
}

@Suite("Process coordination")
struct ProcessCoordinationTests {
    /// Two handles on one fresh PostgreSQL database.
    private static func twoProcesses() throws -> (NodeDatabase, NodeDatabase) {
        let url = try TestEngine.freshPostgresDatabase()
        return (try NodeDatabase(url: url), try NodeDatabase(url: url))
    }

    @Test("processes opening one database get different tags for their ids", .enabled(if: TestEngine.postgresURL != nil))
    func processTags() throws {
        let (first, second) = try Self.twoProcesses()
        let tags = try [first.newProcessTag(), second.newProcessTag(), first.newProcessTag()].map { try #require($0) }
        #expect(Set(tags).count == 3)
    }

    private static func item(_ actor: String, _ number: Int, at now: Date) -> InboxItem {
        InboxItem(activityId: "\(actor)/activities/\(number)", actorUri: actor, recipientAccountId: nil, payload: Data("{}".utf8), receivedAt: now)
    }

    @Test("a rate-limit window counts hits and starts again once over; a job's turn comes once per interval", arguments: TestEngine.all)
    func windowsAndTurns(engine: TestEngine) async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let database = try engine.open(dir)
        let start = Date()
        for expected in 1...3 {
            let window = try await database.write { try $0.coordination.countHit("login:1.2.3.4", window: 300, at: start.addingTimeInterval(Double(expected))) }
            #expect(window.hits == expected)
            #expect(abs(window.startedAt.timeIntervalSince(start.addingTimeInterval(1))) < 0.01, "the window started with its first hit")
        }
        #expect(try await database.read { try $0.coordination.window("login:1.2.3.4", length: 300, at: start.addingTimeInterval(10)) }?.hits == 3)
        let later = start.addingTimeInterval(302)
        #expect(try await database.read { try $0.coordination.window("login:1.2.3.4", length: 300, at: later) } == nil, "over")
        let fresh = try await database.write { try $0.coordination.countHit("login:1.2.3.4", window: 300, at: later) }
        #expect(fresh.hits == 1 && abs(fresh.startedAt.timeIntervalSince(later)) < 0.01)
        try await database.write { try $0.coordination.clearWindow("login:1.2.3.4") }
        #expect(try await database.read { try $0.coordination.window("login:1.2.3.4", length: 300, at: later) } == nil)

        #expect(try await database.write { try $0.coordination.takeTurn(of: "janitor", every: 3600, at: start) })
        #expect(try await database.write { try $0.coordination.takeTurn(of: "janitor", every: 3600, at: start.addingTimeInterval(1800)) } == false)
        #expect(try await database.write { try $0.coordination.takeTurn(of: "pruner", every: 3600, at: start.addingTimeInterval(1800)) },
                "each job has its own turn")
        #expect(try await database.write { try $0.coordination.takeTurn(of: "janitor", every: 3600, at: start.addingTimeInterval(3600)) })
    }

    @Test("two processes never claim one inbox item, nor two items of one actor; a claim that ran out is taken over",
          .enabled(if: TestEngine.postgresURL != nil))
    func inboxClaims() async throws {
        let (first, second) = try Self.twoProcesses()
        let now = Date()
        let a1 = Self.item("https://a.example/users/ann", 1, at: now)
        let a2 = Self.item("https://a.example/users/ann", 2, at: now)
        let b1 = Self.item("https://b.example/users/bob", 1, at: now)
        try await first.writeSQL { db in for item in [a1, a2, b1] { try item.insert(db) } }

        let claimedFirst = try await first.write { try $0.inbox.claim([a1.id, b1.id], holder: "p1", at: now) }
        #expect(Set(claimedFirst.keys) == [a1.id, b1.id])
        let seen = try await second.read { try $0.inbox.candidates(at: now, excludingActors: [], excludingDomains: [], limit: 10) }
        #expect(seen.isEmpty, "claimed items, and the items of an actor with a claimed item, are another process's")
        #expect(try await second.write { try $0.inbox.claim([a2.id, b1.id], holder: "p2", at: now) }.isEmpty)

        try await first.write { try $0.inbox.finish(claimedFirst[a1.id]!, outcome: "processed") }
        #expect(try await second.read { try $0.inbox.candidates(at: now, excludingActors: [], excludingDomains: [], limit: 10) }.map(\.id) == [a2.id])
        #expect(try await second.write { try $0.inbox.claim([a2.id], holder: "p2", at: now) }.keys.first == a2.id)

        // The first process died holding b1: once its claim ran out, b1 is the second's, with
        // the unfinished attempt counted.
        let expired = now.addingTimeInterval(WorkLease.duration + 1)
        #expect(try await second.read { try $0.inbox.candidates(at: expired, excludingActors: [], excludingDomains: [], limit: 10) }.map(\.id).contains(b1.id))
        let takenOver = try await second.write { try $0.inbox.claim([b1.id], holder: "p2", at: expired) }
        #expect(takenOver[b1.id]?.unfinishedAttempts == 2)
        // A live process renews its claims, so they do not run out.
        try await second.write { try $0.coordination.renewClaims(of: "p2", on: [.inbox: [b1.id]], at: expired) }
        let renewedUntil = try await second.readSQL { try Date.fetchOne($0, sql: "SELECT claimed_until FROM inbox_queue WHERE id = ?", arguments: [b1.id]) }
        #expect(renewedUntil.map { $0 > expired.addingTimeInterval(WorkLease.duration - 1) } == true)
    }

    @Test("claiming concurrently from two processes, every inbox item is claimed exactly once",
          .enabled(if: TestEngine.postgresURL != nil))
    func concurrentInboxClaims() async throws {
        let (first, second) = try Self.twoProcesses()
        let now = Date()
        // Three items each for 40 actors.
        let items = (0..<40).flatMap { actor in (1...3).map { Self.item("https://c.example/users/u\(actor)", $0, at: now) } }
        try await first.writeSQL { db in for item in items { try item.insert(db) } }
        let claims = Shared<[Int64: [String]]>([:])
        // Each process claims what it sees, finishes it, and goes on until nothing is left.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (database, holder) in [(first, "p1"), (second, "p2"), (first, "p1b"), (second, "p2b")] {
                group.addTask { [database, holder] in
                    while true {
                        let candidates = try await database.read {
                            try $0.inbox.candidates(at: now, excludingActors: [], excludingDomains: [], limit: 8)
                        }
                        if candidates.isEmpty { break }
                        // One per actor, as the worker chooses.
                        var actors = Set<String>()
                        let chosen = candidates.filter { actors.insert($0.actorUri).inserted }.map(\.id)
                        let claimed = try await database.write { try $0.inbox.claim(chosen, holder: holder, at: now) }
                        claims.with { for id in claimed.keys { $0[id, default: []].append(holder) } }
                        try await database.write { db in for item in claimed.values { try db.inbox.finish(item, outcome: "processed") } }
                    }
                }
            }
            try await group.waitForAll()
        }
        let final = claims.with { $0 }
        #expect(Set(final.keys) == Set(items.map(\.id)), "every item was claimed")
        #expect(final.values.allSatisfy { $0.count == 1 }, "no item was claimed twice: \(final.filter { $0.value.count > 1 })")
    }

    @Test("a delivery another process claimed is skipped, not sent twice", .enabled(if: TestEngine.postgresURL != nil))
    func deliveryClaims() async throws {
        let (first, second) = try Self.twoProcesses()
        let ids = try await first.writeSQL { db -> [Int64] in
            let alice = try Account(username: "alice", domain: nil, uri: "https://a.example/users/alice").inserted(db)
            _ = try Delivery.enqueue(activityUri: "https://a.example/activities/1", payload: Data("{}".utf8), accountId: alice.id,
                                     inboxes: ["https://x.example/inbox", "https://y.example/inbox", "https://z.example/inbox"], in: db)
            return try Int64.fetchAll(db, sql: "SELECT id FROM delivery_queue ORDER BY id")
        }
        #expect(ids.count == 3)
        let now = Date()
        #expect(try await first.write { try $0.deliveries.claim(Array(ids.prefix(2)), holder: "p1", at: now) } == Set(ids.prefix(2)))
        #expect(try await second.write { try $0.deliveries.claim(ids, holder: "p2", at: now) } == [ids[2]])
        let due = try await second.read { try $0.deliveries.fairDue(at: now, perDomain: 10, limit: 10) }
        #expect(due.isEmpty, "claimed deliveries are not due for another process")
        try await first.write { try $0.deliveries.reschedule(ids[0], attempts: 1, nextAttemptAt: now, status: 503, error: "busy") }
        #expect(try await second.read { try $0.deliveries.fairDue(at: now, perDomain: 10, limit: 10) }.map(\.id) == [ids[0]],
                "a failed attempt gives its claim back")
        try await first.write { try $0.deliveries.reschedule(ids[1], attempts: 1, nextAttemptAt: now.addingTimeInterval(600), status: 503, error: "busy") }
        #expect(try await second.write { try $0.deliveries.claim([ids[1]], holder: "p2", at: now) }.isEmpty,
                "a delivery backing off after another process's attempt is not claimed from a stale read")
    }

    @Test("a reader of the streaming log misses nothing two processes append at once, and hears of it",
          .enabled(if: TestEngine.postgresURL != nil))
    func streamLogOrder() async throws {
        let (first, second) = try Self.twoProcesses()
        let announced = Shared(0)
        let observation = StreamLog.observeChanges(in: second) { announced.with { $0 += 1 } }
        defer { observation.cancel() }
        let perWriter = 150
        let done = Shared(0)
        var seen = Set<Int64>()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for database in [first, second] {
                group.addTask {
                    for number in 0..<perWriter {
                        try await database.writeSQL { db in
                            try db.execute(sql: "INSERT INTO stream_events(kind, account_id) VALUES ('post', ?)", arguments: [number])
                        }
                    }
                    done.with { $0 += 1 }
                }
            }
            // A reader that advances its cursor past whatever it saw, as the streaming hub does.
            var cursor: Int64 = 0
            while true {
                let finished = done.with { $0 } == 2
                let after = cursor
                let events = try await first.read { try $0.stream.events(after: after, limit: 50) }
                for event in events { seen.insert(event.id) }
                cursor = events.last?.id ?? cursor
                if finished && events.isEmpty { break }
                if events.isEmpty { try await Task.sleep(for: .milliseconds(2)) }
            }
            try await group.waitForAll()
        }
        let all = Set(try await first.readSQL { try Int64.fetchAll($0, sql: "SELECT id FROM stream_events") })
        #expect(all.count == 2 * perWriter)
        #expect(seen == all, "the reader missed \(all.subtracting(seen).count) events")
        let deadline = ContinuousClock.now + .seconds(10)
        while announced.with({ $0 }) == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(announced.with { $0 } > 0, "the other process's appends were announced")
    }
}
