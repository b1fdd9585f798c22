import Foundation
import Testing
@testable import Storage

/// Account search ranks a bounded set of candidates; what the ranking puts first must still be
/// found when a short prefix matches more accounts than that set holds.
@Suite("Account search")
struct AccountSearchTests {
    @Test("a prefix matching 2,600 accounts, 1,100 of them not listable: the exact name, then related, then local accounts, then by name", arguments: TestEngine.all)
    func broadPrefix(engine: TestEngine) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let database = try engine.open(dir)
        let viewer = Account(username: "viewer", domain: nil, uri: "https://local.example/users/viewer")
        // Names after every one of the 1,500 "pal…" remote accounts in index order.
        let local = Account(username: "palzlocal", domain: nil, uri: "https://local.example/users/palzlocal")
        let friend = Account(username: "palzzfriend", domain: "far.example", uri: "https://far.example/users/palzzfriend")
        let exact = Account(username: "pal", domain: "other.example", uri: "https://other.example/users/pal")
        let fan = Account(username: "palzzzfan", domain: "far.example", uri: "https://far.example/users/palzzzfan")
        var hidden = Account(username: "palhidden", domain: "far.example", uri: "https://far.example/users/palhidden")
        hidden.discoverable = false
        try database.writeBlocking { tx in
            for account in [viewer, local, friend, exact, fan, hidden] { try tx.accounts.insert(account) }
            // Before all of them in index order, and not listable: they must not crowd the others out.
            for n in 0..<1100 {
                var quiet = Account(username: String(format: "pal-%04d", n), domain: "many.example", uri: "https://many.example/users/q\(n)")
                quiet.discoverable = false
                try tx.accounts.insert(quiet)
            }
            for n in 0..<1500 {
                let name = String(format: "pal%04d", n)
                try tx.accounts.insert(Account(username: name, domain: "many.example", uri: "https://many.example/users/\(name)"))
            }
            try tx.follows.insert(Follow(accountId: viewer.id, targetAccountId: friend.id, uri: nil, state: .accepted))
            try tx.follows.insert(Follow(accountId: fan.id, targetAccountId: viewer.id, uri: nil, state: .pending))
        }
        let names = try database.readBlocking { tx in
            try tx.accounts.search(prefix: "pal", viewer: viewer.id, onlyFollowed: false, limit: 6, offset: 0).map(\.username)
        }
        #expect(names == ["pal", "palzzfriend", "palzzzfan", "palzlocal", "pal0000", "pal0001"])
        let followed = try database.readBlocking { tx in
            try tx.accounts.search(prefix: "PAL", viewer: viewer.id, onlyFollowed: true, limit: 6, offset: 0).map(\.username)
        }
        #expect(followed == ["palzzfriend"])
        let next = try database.readBlocking { tx in
            try tx.accounts.search(prefix: "pal", viewer: viewer.id, onlyFollowed: false, limit: 2, offset: 6).map(\.username)
        }
        #expect(next == ["pal0002", "pal0003"])
    }
}
