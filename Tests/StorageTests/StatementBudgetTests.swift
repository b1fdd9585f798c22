import Foundation
import GRDB
import Testing
@testable import Storage

/// Raw SQL run through `SQLSession` comes from the connection's statement cache, whose size
/// stays bounded however many distinct texts are run; lookups by primary key take the same
/// way; reads begin and end their transactions through cached statements.
@Suite struct StatementBudgetTests {
    @Test func rawQueriesAreCachedAndTheCacheStaysBounded() throws {
        let queue = try DatabaseQueue()
        try queue.inDatabase { db throws in
            let session = SQLSession(db)
            for _ in 0..<3 {
                #expect(try Int.fetchOne(session, sql: "SELECT 40 + ?", arguments: [2]) == 42)
            }
            #expect(StatementBudget.cachedCount(on: db) == 1)
            // Texts that never repeat (values spliced in): answers stay right, the count bounded.
            for value in 0..<(StatementBudget.limit * 2 + 10) {
                #expect(try Int.fetchOne(session, sql: "SELECT \(value)") == value)
                #expect(StatementBudget.cachedCount(on: db) <= StatementBudget.limit)
            }
            #expect(try Row.fetchAll(session, sql: "SELECT 1 AS a UNION ALL SELECT 2").map { $0["a"] as Int } == [1, 2])
        }
    }

    @Test func lookupsByPrimaryKeyFindAndMiss() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let database = try NodeDatabase(path: dir.file("node.sqlite"))
        let author = Account(username: "author", domain: nil, uri: "https://local.example/users/author")
        let post = Post(uri: "\(author.uri)/statuses/1", accountId: author.id, local: true)
        try database.writeBlocking { tx in
            try tx.accounts.insert(author)
            try tx.posts.insert(post)
            _ = try tx.markers.save(account: author.id, timeline: "home", lastReadId: "\(post.id)")
        }
        try database.readBlocking { tx throws in
            #expect(try tx.posts.find(id: post.id)?.uri == post.uri)
            #expect(try tx.posts.find(id: post.id + 1) == nil)
            #expect(try tx.accounts.exists(id: author.id))
            #expect(try !tx.accounts.exists(id: author.id + 1))
            #expect(try tx.markers.find(account: author.id, timelines: ["home"]).map(\.lastReadId) == ["\(post.id)"])
        }
    }

    @Test func readsLeaveNoTransactionOpenWhetherTheyReturnOrThrow() async throws {
        struct Refused: Error {}
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let database = try NodeDatabase(path: dir.file("node.sqlite"))
        let author = Account(username: "author", domain: nil, uri: "https://local.example/users/author")
        try database.writeBlocking { try $0.accounts.insert(author) }
        // More reads than the pool has readers, so each connection serves several in turn: a
        // read that left its transaction open would make the next one's BEGIN on that
        // connection fail ("cannot start a transaction within a transaction").
        for round in 0..<20 {
            if round % 2 == 0 {
                let found = try await database.read { try $0.accounts.find(id: author.id)?.username }
                #expect(found == "author")
            } else {
                await #expect(throws: Refused.self) {
                    try await database.read { tx -> Int in
                        _ = try tx.accounts.find(id: author.id)
                        throw Refused()
                    }
                }
            }
        }
        // A read after a write sees it: its snapshot began after the commit.
        let other = Account(username: "other", domain: nil, uri: "https://local.example/users/other")
        try await database.write { try $0.accounts.insert(other) }
        #expect(try await database.read { try $0.accounts.exists(id: other.id) })
    }
}
