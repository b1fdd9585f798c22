import Foundation
import GRDB
import Synchronization
import Testing
@testable import Storage

/// SQLite reads run on the calling thread only while a reader connection is surely free;
/// past that they wait on the pool's queues, and no mix of the two can leave a read waiting
/// for ever.
@Suite struct ReaderGateTests {
    @Test func readsRunInPlaceUpToOneReaderShortOfThePool() {
        let gate = ReaderGate(readers: 5)
        #expect(gate.limit == 4)
        #expect((0..<4).map { _ in gate.enter() } == [true, true, true, true])
        // The fifth and sixth reads in flight go to the pool's queues, and are counted too.
        #expect(!gate.enter())
        #expect(!gate.enter())
        #expect(gate.count == 6)
        for _ in 0..<6 { gate.leave() }
        #expect(gate.count == 0)
        #expect(gate.enter())
        gate.leave()
        // A pool of one reader keeps it for the reads that do not count themselves.
        #expect(ReaderGate(readers: 1).enter() == false)
    }

    @Test(.timeLimit(.minutes(1)))
    func manyConcurrentReadsAllFinishWhileAnUncountedReadHoldsAReader() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let database = try NodeDatabase(path: dir.file("node.sqlite"))
        let authors = (0..<8).map { Account(username: "author\($0)", domain: nil, uri: "https://local.example/users/author\($0)") }
        try database.writeBlocking { tx in for author in authors { try tx.accounts.insert(author) } }

        // Code that uses the pool directly holds a reader without counting itself; the reads
        // start once it holds it.
        let holding = Atomic<Bool>(false)
        let release = Atomic<Bool>(false)
        let holder = Task {
            try await database.pool.read { db in
                holding.store(true, ordering: .releasing)
                while !release.load(ordering: .acquiring) { usleep(1_000) }
                return try Int.fetchOne(db, sql: "SELECT count(*) FROM accounts")
            }
        }
        while !holding.load(ordering: .acquiring) { try await Task.sleep(nanoseconds: 1_000_000) }
        // Many more reads than readers, each long enough to overlap the others, so some run in
        // place and some wait on the pool's queues.
        let names = try await withThrowingTaskGroup(of: String?.self) { group in
            for index in 0..<200 {
                let author = authors[index % authors.count]
                group.addTask {
                    try await database.read { tx in
                        usleep(500)
                        return try tx.accounts.find(id: author.id)?.username
                    }
                }
            }
            return try await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(names.count == 200)
        #expect(Set(names.compactMap { $0 }) == Set(authors.map(\.username)))
        release.store(true, ordering: .releasing)
        #expect(try await holder.value == authors.count)
        #expect(database.readers.count == 0)
    }
}
