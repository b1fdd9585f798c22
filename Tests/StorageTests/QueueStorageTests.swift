import Foundation
import GRDB
import Synchronization
import Testing
@testable import Storage

@Suite("Queue storage")
struct QueueStorageTests {
    @Test("commits are durable: synchronous = FULL on the writer, in WAL mode")
    func durableCommits() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let database = try NodeDatabase(path: dir.file("node.sqlite"))
        let (synchronous, journal) = try database.pool.write { db in
            (try Int.fetchOne(db, sql: "PRAGMA synchronous"), try String.fetchOne(db, sql: "PRAGMA journal_mode"))
        }
        #expect(synchronous == 2, "2 is FULL; NORMAL (1) may lose acknowledged commits on power loss")
        #expect(journal == "wal")
    }

    @Test("inbox candidates skip busy actors, saturated domains, parked and future items; claims count, parking keeps the row")
    func inboxQueue() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let database = try NodeDatabase(path: dir.file("node.sqlite"))
        let now = Date()
        let items = [
            InboxItem(activityId: "https://slow.example/1", actorUri: "https://Slow.Example/users/a", recipientAccountId: nil, payload: Data("{}".utf8), receivedAt: now),
            InboxItem(activityId: "https://slow.example/2", actorUri: "https://slow.example/users/b", recipientAccountId: nil, payload: Data("{}".utf8), receivedAt: now),
            InboxItem(activityId: "https://fast.example:8443/1", actorUri: "https://fast.example:8443/users/c", recipientAccountId: nil, payload: Data("{}".utf8), receivedAt: now),
            InboxItem(activityId: "https://fast.example:8443/2", actorUri: "https://fast.example:8443/users/d", recipientAccountId: nil, payload: Data("{}".utf8), receivedAt: now.addingTimeInterval(60)),
        ]
        try database.pool.write { db in
            for item in items {
                try item.insert(db)
                try db.execute(sql: "INSERT INTO seen_activities(origin, uri, outcome, seen_at) VALUES (?, ?, 'queued', ?)",
                               arguments: [URL(string: item.activityId!)!.host, item.activityId, now])
            }
        }
        let all = try database.pool.read { try InboxQueue.candidates(at: now, excludingActors: [], excludingDomains: [], limit: 10, in: SQLSession($0)) }
        #expect(all.map(\.id) == items.prefix(3).map(\.id), "due items in arrival order")
        #expect(all.map(\.domain) == ["slow.example", "slow.example", "fast.example:8443"])
        let filtered = try database.pool.read {
            try InboxQueue.candidates(at: now, excludingActors: ["https://slow.example/users/b"], excludingDomains: ["fast.example:8443"], limit: 10, in: SQLSession($0))
        }
        #expect(filtered.map(\.id) == [items[0].id])

        let claimed = try database.pool.write { try Transaction($0).inbox.claim([items[0].id], holder: "test", at: now)[items[0].id] }
        #expect(claimed?.unfinishedAttempts == 1)
        try database.pool.write { try InboxQueue.park(items[0].id, reason: "interrupted 3 times", at: now, in: SQLSession($0)) }
        #expect(try database.pool.write { try Transaction($0).inbox.claim([items[0].id], holder: "test", at: now)[items[0].id] } == nil, "a parked item is not claimed")
        let parked = try database.pool.read { try InboxQueue.parked(in: SQLSession($0)) }
        #expect(parked.map(\.id) == [items[0].id])
        #expect(try database.pool.read { try String.fetchOne($0, sql: "SELECT outcome FROM seen_activities WHERE uri = ?", arguments: [items[0].activityId]) } == "parked")
        #expect(try database.pool.read { try InboxQueue.candidates(at: now, excludingActors: [], excludingDomains: [], limit: 10, in: SQLSession($0)) }.count == 2)

        #expect(try database.pool.write { try InboxQueue.unpark(items[0].id, at: now, in: SQLSession($0)) })
        let back = try database.pool.read { try InboxItem.fetchOne($0, key: items[0].id) }
        #expect(back?.parkedAt == nil && back?.unfinishedAttempts == 0)
        #expect(try database.pool.write { try InboxQueue.unpark(items[0].id, at: now, in: SQLSession($0)) } == false)
    }

    @Test("grouped writes share commits; a failing one rolls back alone and the group goes on", arguments: TestEngine.all)
    func groupCommit(engine: TestEngine) async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let groups = Mutex<[Bool: [Int]]>([:])
        let database = try engine.open(dir) { durable, size in groups.withLock { $0[durable, default: []].append(size) } }
        // 7 throws after its change; 9's second statement fails in the database (on PostgreSQL
        // that aborts the transaction until the savepoint is rolled back); 11 is bookkeeping.
        let results = await withTaskGroup(of: (Int, Bool).self) { group in
            for index in 0..<64 {
                group.addTask {
                    do {
                        let write: @Sendable (Transaction) throws -> Int = { db in
                            try db.settings.set("key\(index)", to: "value\(index)")
                            if index == 7 { throw DatabaseError(message: "refused") }
                            if index == 9 { try db.session.execute(sql: "INSERT INTO node_settings(key, value) VALUES ('key9', 'again')") }
                            return index
                        }
                        let stored = try await index == 11 ? database.writeBookkeeping(write) : database.writeDurablyGrouped(write)
                        return (stored, true)
                    } catch {
                        return (index, false)
                    }
                }
            }
            var all: [(Int, Bool)] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.filter { $0.1 }.count == 62)
        #expect(Set(results.filter { !$0.1 }.map(\.0)) == [7, 9])
        let keys = try await database.read { try String.fetchAll($0.session, sql: "SELECT key FROM node_settings WHERE key LIKE 'key%'") }
        #expect(Set(keys) == Set((0..<64).filter { $0 != 7 && $0 != 9 }.map { "key\($0)" }), "each write landed whole, the failed ones not at all")
        let (durable, bookkeeping) = groups.withLock { ($0[true] ?? [], $0[false] ?? []) }
        // Bookkeeping is grouped on SQLite only (see `NodeDatabase.writeBookkeeping`).
        #expect(durable.reduce(0, +) == 63 && bookkeeping == (engine == .sqlite ? [1] : []), "every caller was in a committed group")
        #expect(durable.count < 63, "concurrent writes shared commits")
    }
}
