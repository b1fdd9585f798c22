@testable import Core
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// `GET /api/v2/suggestions`, `GET /api/v1/suggestions`, `DELETE /api/v1/suggestions/:id`,
/// over loopback HTTP.
@Suite("Client API: follow suggestions")
struct SuggestionsTests {
    @Test("friends of friends come first, ranked by how many followees follow them; then active local accounts")
    func friendsOfFriendsThenActive() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (me, myToken) = try await t.user("me")
        let (f1, _) = try await t.user("f1")
        let (f2, _) = try await t.user("f2")
        let (popular, _) = try await t.user("popular")
        let (lesser, _) = try await t.user("lesser")
        let (_, activeToken) = try await t.user("active")
        let (_, idleToken) = try await t.user("idle")
        let (_, mineToken) = try await t.user("mine")
        _ = idleToken
        for followee in [f1, f2] { _ = try await t.node.interactions.follow(followee, by: me) }
        for follower in [f1, f2] { _ = try await t.node.interactions.follow(popular, by: follower) }
        _ = try await t.node.interactions.follow(lesser, by: f1)
        _ = try await t.node.interactions.follow(me, by: f1)
        try await buildApplication(node: t.node).test(.live) { client async throws in
            let post = try await StatusFixtures.post(client, token: activeToken, "a harbour at dusk")
            _ = try await StatusFixtures.post(client, token: mineToken, "mine, no interactions")
            #expect(try await client.api(.post, "/api/v1/statuses/\(post)/favourite", token: myToken).status == .ok)
            let response = try await client.api(.get, "/api/v2/suggestions", token: myToken)
            #expect(response.status == .ok)
            let suggestions = try response.entity([APISuggestion].self)
            let names = suggestions.map(\.account.username)
            #expect(Array(names.prefix(2)) == ["popular", "lesser"])
            #expect(suggestions.first?.sources == ["friends_of_friends"])
            #expect(suggestions.first?.source == "past_interactions")
            #expect(names.contains("active") && names.firstIndex(of: "active")! < names.firstIndex(of: "mine")!)
            #expect(suggestions.first { $0.account.username == "active" }?.sources == ["most_interactions"])
            #expect(suggestions.first { $0.account.username == "active" }?.source == "global")
            #expect(!names.contains("me") && !names.contains("f1") && !names.contains("f2") && !names.contains("idle"))
            let v1 = try await client.api(.get, "/api/v1/suggestions?limit=1", token: myToken).entity([APIAccount].self)
            #expect(v1.map(\.username) == ["popular"])
        }
    }

    @Test("a dismissed, blocked, requested or undiscoverable account is not suggested")
    func exclusions() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (me, myToken) = try await t.user("me")
        let (friend, _) = try await t.user("friend")
        _ = try await t.node.interactions.follow(friend, by: me)
        var candidates: [String: Account] = [:]
        for name in ["dismissed", "blocked", "hidden", "kept"] {
            let (account, _) = try await t.user(name)
            _ = try await t.node.interactions.follow(account, by: friend)
            candidates[name] = account
        }
        let (unlocked, _) = try await t.user("requested")
        _ = try await t.node.interactions.follow(unlocked, by: friend)
        let hiddenId = candidates["hidden"]!.id
        try await t.node.database.writeSQL { db in
            try db.execute(sql: "UPDATE accounts SET discoverable = 0 WHERE id = ?", arguments: [hiddenId])
            try db.execute(sql: "UPDATE accounts SET locked = 1 WHERE id = ?", arguments: [unlocked.id])
        }
        guard let locked = try await t.node.database.read({ try $0.accounts.find(id: unlocked.id) }) else { return }
        #expect(try await t.node.interactions.follow(locked, by: me).state == .pending)
        let picked = candidates
        try await buildApplication(node: t.node).test(.live) { client async throws in
            let before = try await client.api(.get, "/api/v2/suggestions", token: myToken).entity([APISuggestion].self)
            #expect(Set(before.map(\.account.username)) == ["dismissed", "blocked", "kept"])
            let dismissed = try await client.api(.delete, "/api/v1/suggestions/\(picked["dismissed"]!.id)", token: myToken)
            #expect(dismissed.status == .ok)
            #expect(try await client.api(.delete, "/api/v1/suggestions/\(picked["dismissed"]!.id)", token: myToken).status == .ok)
            #expect(try await client.api(.post, "/api/v1/accounts/\(picked["blocked"]!.id)/block", token: myToken).status == .ok)
            let after = try await client.api(.get, "/api/v2/suggestions", token: myToken).entity([APISuggestion].self)
            #expect(after.map(\.account.username) == ["kept"])
        }
    }

    @Test("suggestions need a signed-in user with read (write to dismiss); unknown accounts are 404")
    func authentication() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, readOnly) = try await t.user("reader", scopes: "read")
        let (_, statusesOnly) = try await t.user("poster", scopes: "read:statuses write:statuses")
        try await buildApplication(node: t.node).test(.live) { client async throws in
            #expect(try await client.api(.get, "/api/v2/suggestions").status == .unauthorized)
            #expect(try await client.api(.get, "/api/v1/suggestions", token: statusesOnly).status == .forbidden)
            #expect(try await client.api(.get, "/api/v2/suggestions?limit=abc", token: readOnly).status == .ok)
            #expect(try await client.api(.delete, "/api/v1/suggestions/1", token: readOnly).status == .forbidden)
            #expect(try await client.api(.delete, "/api/v1/suggestions/999999", token: statusesOnly).status == .forbidden)
        }
        let (_, writer) = try await t.user("writer")
        try await buildApplication(node: t.node).test(.live) { client async throws in
            let missing = try await client.api(.delete, "/api/v1/suggestions/999999", token: writer)
            #expect(missing.status == .notFound)
            #expect(try await client.api(.delete, "/api/v1/suggestions/not-a-number", token: writer).status == .notFound)
        }
    }
}
