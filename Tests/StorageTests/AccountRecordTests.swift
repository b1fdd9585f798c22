import Foundation
import GRDB
import Testing
@testable import Storage

@Suite("Account records")
struct AccountRecordTests {
    @Test("local usernames are unique ignoring case; remote ones are per domain")
    func usernameUniqueness() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let database = try NodeDatabase(path: dir.file("node.sqlite"))
        try database.pool.write { db in
            try Account(username: "Alice", domain: nil, uri: "https://a.example/users/Alice").insert(db)
            try Account(username: "alice", domain: "b.example", uri: "https://b.example/users/alice").insert(db)
            try Account(username: "alice", domain: "c.example", uri: "https://c.example/u/alice").insert(db)
        }
        #expect(throws: DatabaseError.self) {
            try database.pool.write { db in
                try Account(username: "ALICE", domain: nil, uri: "https://a.example/users/ALICE").insert(db)
            }
        }
        let found = try database.pool.read { try Account.local("aLiCe").fetchOne($0) }
        #expect(found?.username == "Alice")
        let remote = try database.pool.read { try Account.handle("ALICE", domain: "B.example").fetchOne($0) }
        #expect(remote?.uri == "https://b.example/users/alice")
    }

    @Test("profile fields round-trip and deleting an account removes what it owns")
    func fieldsAndCascade() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let database = try NodeDatabase(path: dir.file("node.sqlite"))
        // Whole milliseconds: SQLite keeps dates to the millisecond.
        var account = Account(username: "bob", domain: nil, uri: "https://a.example/users/bob",
                              createdAt: Date(timeIntervalSince1970: 1_700_000_000.25))
        account.fields = [ProfileField(name: "GitHub", value: "https://github.com/bob")]
        account.firstName = "Bob"
        account.lastName = "Builder"
        let stored = account
        try database.pool.write { db in
            try stored.insert(db)
            try Credential(accountId: stored.id, email: "bob@example.com", passwordHash: "x").insert(db)
            try Post(uri: "https://a.example/users/bob/statuses/1", accountId: stored.id, local: true).insert(db)
        }
        let read = try database.pool.read { try Account.fetchOne($0, key: stored.id) }
        #expect(read == stored)
        try database.pool.write { db in _ = try stored.delete(db) }
        let leftovers = try database.pool.read { db in
            (try Credential.fetchCount(db), try Post.fetchCount(db))
        }
        #expect(leftovers == (0, 0))
    }

    @Test("credential emails are unique ignoring case")
    func emailUniqueness() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let database = try NodeDatabase(path: dir.file("node.sqlite"))
        let first = Account(username: "one", domain: nil, uri: "https://a.example/users/one")
        let second = Account(username: "two", domain: nil, uri: "https://a.example/users/two")
        try database.pool.write { db in
            try first.insert(db)
            try second.insert(db)
            try Credential(accountId: first.id, email: "Same@Example.com", passwordHash: "x").insert(db)
        }
        #expect(throws: DatabaseError.self) {
            try database.pool.write { db in
                try Credential(accountId: second.id, email: "same@example.COM", passwordHash: "y").insert(db)
            }
        }
    }
}
