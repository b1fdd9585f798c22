import Activity
@testable import Core
import Foundation
import GRDB
import Storage
import Testing
@testable import FedNode

/// Account migration across real nodes: a `Move` sent to followers' servers makes their local
/// followers follow the new account; a `Move` whose target does not alias the mover, or that
/// moves someone else, is ignored. And Mastodon.py's domain-block and follower-removal calls.
@Suite("Account migration and per-person tools across nodes", .serialized)
struct MoveFederationTests {
    @Test("alice@A moves to alice2@B, who aliased her first: carol@C ends up following alice2@B and not alice@A")
    func move() async throws {
        let (a, b, c) = (try NetworkNode(name: "move-a"), try NetworkNode(name: "move-b"), try NetworkNode(name: "move-c"))
        defer { [a, b, c].forEach { $0.remove() } }
        for node in [a, b, c] { try await node.start() }
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let alice2 = try await b.node.accounts.create(username: "alice2", email: "alice2@b.test", password: "alice2 password")
        let carol = try await c.node.accounts.create(username: "carol", email: "carol@c.test", password: "carol password")
        let aliceOnC = try await Self.follow("alice", on: a, by: carol, from: c)

        let alice2Token = try await ModerationTests.token(b, alice2, scopes: "read write")
        let aliased = try await ModerationTests.call(b, "POST", "/api/v1/accounts/alias", token: alice2Token,
                                                     form: [("also_known_as_uris[]", alice.uri)])
        #expect(aliased.status == 200)
        let aliceToken = try await ModerationTests.token(a, alice, scopes: "read write")
        let moved = try await ModerationTests.call(a, "POST", "/api/v1/accounts/move", token: aliceToken,
                                                   form: [("password", "alice password"), ("moved_to_uri", alice2.uri)])
        #expect(moved.status == 202)

        try await eventually("B: carol follows alice2") {
            try b.read { db in
                guard let carolOnB = try Account.filter(Column("uri") == carol.uri).fetchOne(db) else { return false }
                return try Follow.filter(Column("account_id") == carolOnB.id && Column("target_account_id") == alice2.id
                                         && Column("state") == "accepted").fetchCount(db) == 1
            }
        }
        try await eventually("A: carol no longer follows alice") {
            try a.read { try Follow.filter(Column("target_account_id") == alice.id).fetchCount($0) } == 0
        }
        let alice2OnC = try #require(try c.read { try Account.filter(Column("uri") == alice2.uri).fetchOne($0) })
        try await eventually("C: carol follows alice2, accepted, and not alice") {
            try c.read { db in
                try Follow.filter(Column("account_id") == carol.id).fetchAll(db).map { [$0.targetAccountId, $0.state == .accepted ? 1 : 0] }
            } == [[alice2OnC.id, 1]]
                // The move notice is written after the follows change, in a write of its own.
                && c.read { try AccountNotification.filter(Column("account_id") == carol.id && Column("type") == "move").fetchCount($0) } == 1
        }
        let carolToken = try await ModerationTests.token(c, carol, scopes: "read")
        let shown = try await ModerationTests.call(c, "GET", "/api/v1/accounts/\(aliceOnC.id)", token: carolToken)
        #expect(((shown.json as? [String: Any])?["moved"] as? [String: Any])?["id"] as? String == String(alice2OnC.id))
        let notices = try await ModerationTests.call(c, "GET", "/api/v1/notifications?types[]=move", token: carolToken).json as? [[String: Any]]
        #expect(notices?.count == 1)
        let post = try await ModerationTests.call(a, "POST", "/api/v1/statuses", token: aliceToken, form: [("status", "hello?")])
        #expect(post.status == 422, "a moved account no longer posts")
        for node in [a, b, c] { await node.stop() }
    }

    @Test("a Move whose target does not alias the mover, or that moves another account, is ignored")
    func hostileMoves() async throws {
        let (a, b, c) = (try NetworkNode(name: "hostile-move-a"), try NetworkNode(name: "hostile-move-b"), try NetworkNode(name: "hostile-move-c"))
        defer { [a, b, c].forEach { $0.remove() } }
        for node in [a, b, c] { try await node.start() }
        let dave = try await a.node.accounts.create(username: "dave", email: "dave@a.test", password: "dave password")
        let erin = try await a.node.accounts.create(username: "erin", email: "erin@a.test", password: "erin password")
        let evil = try await b.node.accounts.create(username: "evil", email: "evil@b.test", password: "evil password")
        let carol = try await c.node.accounts.create(username: "carol", email: "carol@c.test", password: "carol password")
        let daveOnC = try await Self.follow("dave", on: a, by: carol, from: c)
        // evil aliases erin (not dave): a Move of dave to evil must fail the alias check, and a
        // Move dave sends of erin's account must fail the actor check.
        try await b.node.migrations.setAliases([erin.uri], of: evil)
        let evilOnA = try await a.node.remoteAccounts.resolve(username: "evil", domain: b.domain)
        let carolOnA = try #require(try a.read { try Account.filter(Column("uri") == carol.uri).fetchOne($0) })
        let builder = ActivityBuilder(urls: a.node.urls)
        let unaliased = builder.move(dave, to: evilOnA)
        var foreignMove = builder.move(erin, to: evilOnA)
        foreignMove.actor = .id(dave.uri)
        let foreign = foreignMove
        try await a.node.database.write { db in
            for move in [unaliased, foreign] { try Outbox.record(move, sender: dave, postId: nil, inboxes: Outbox.inbox(of: carolOnA), in: db) }
        }
        a.node.deliverySignal.notify()
        for move in [unaliased, foreign] {
            let id = try #require(move.id)
            try await eventually("C handled \(id)") {
                try c.read { try SeenActivity.filter(Column("uri") == id).fetchOne($0)?.outcome } == "ignored"
            }
        }
        let follows = try c.read { try Follow.filter(Column("account_id") == carol.id).fetchAll($0) }
        #expect(follows.map(\.targetAccountId) == [daveOnC.id] && follows.first?.state == .accepted)
        #expect(try c.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM account_moves") } == 0)
        for node in [a, b, c] { await node.stop() }
    }

    @Test("Mastodon.py's domain_blocks, domain_block, domain_unblock and account_remove_from_followers", .enabled(if: PythonInterop.available))
    func mastodonPy() async throws {
        let (a, b) = (try NetworkNode(name: "domain-py-a"), try NetworkNode(name: "domain-py-b"))
        defer { [a, b].forEach { $0.remove() } }
        for node in [a, b] { try await node.start() }
        let (status, output) = try await PythonInterop.run("move_domain_blocks_test.py", [
            "--node-a", "http://\(a.domain)", "--node-b", "http://\(b.domain)",
        ], within: 180)
        #expect(status == 0 && output.contains("ALL OK"), "Mastodon.py domain blocks run failed:\n\(output)")
        for node in [a, b] { await node.stop() }
    }

    /// `follower` (on `home`) follows `name` of `origin` and waits until the follow is accepted.
    /// - Returns: `home`'s row for the followed account.
    static func follow(_ name: String, on origin: NetworkNode, by follower: Account, from home: NetworkNode) async throws -> Account {
        let target = try await home.node.remoteAccounts.resolve(username: name, domain: origin.domain)
        try await home.node.interactions.follow(target, by: follower)
        try await eventually("\(follower.username) follows \(name), accepted") {
            try home.read { try Follow.filter(Column("account_id") == follower.id && Column("target_account_id") == target.id
                                              && Column("state") == "accepted").fetchCount($0) } == 1
        }
        return target
    }
}
