@testable import Core
import Foundation
import GRDB
import Storage
import Testing
@testable import FedNode

/// Finding accounts on other nodes through search, and the follower, following and post
/// figures their origin reports.
@Suite("Remote accounts through search", .serialized)
struct RemoteAccountsTests {
    @Test("a signed-in search with resolve finds alice@A through WebFinger, with A's counts")
    func resolveThroughSearch() async throws {
        let (a, b) = (try NetworkNode(name: "a"), try NetworkNode(name: "b"))
        defer { [a, b].forEach { $0.remove() } }
        for node in [a, b] { try await node.start() }
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let dave = try await a.node.accounts.create(username: "dave", email: "dave@a.test", password: "dave password")
        try await a.node.interactions.follow(alice, by: dave)
        try await a.node.interactions.follow(dave, by: alice)
        for text in ["Morning", "Evening"] { _ = try await a.node.posts.create(.init(text: text), by: alice) }
        let bob = try await b.node.accounts.create(username: "bob", email: "bob@b.test", password: "bob password")
        let token = try await b.node.database.writeSQL { db in
            try b.node.apiAuth.issueToken(appId: nil, accountId: bob.id, scopes: Scopes("read write follow"), in: Transaction(db)).token
        }

        let query = "q=alice%40\(a.domain)&resolve=true&type=accounts"
        let anonymous = try await search(b, query, token: nil)
        #expect(anonymous.isEmpty, "resolving needs a signed-in caller")
        let found = try await search(b, query, token: token)
        #expect(found.count == 1)
        let account = try #require(found.first)
        #expect(account["acct"] as? String == "alice@\(a.domain)")
        #expect(account["followers_count"] as? Int == 1)
        #expect(account["following_count"] as? Int == 1)
        #expect(account["statuses_count"] as? Int == 2)

        // Refreshed within the hour, the figures are not read again; later they are.
        _ = try await a.node.posts.create(.init(text: "Night"), by: alice)
        _ = try await b.node.remoteAccounts.resolve(uri: alice.uri, refresh: true)
        #expect(try b.read { try Account.withURI(alice.uri).fetchOne($0)?.statusesCount } == 2)
        _ = try await b.node.remoteAccounts.resolve(uri: alice.uri, refresh: true, now: Date().addingTimeInterval(2 * 3600))
        #expect(try b.read { try Account.withURI(alice.uri).fetchOne($0)?.statusesCount } == 3)
        for node in [a, b] { await node.stop() }
    }

    private func search(_ node: NetworkNode, _ query: String, token: String?) async throws -> [[String: Any]] {
        var request = HTTPClientRequest(url: "http://\(node.domain)/api/v2/search?\(query)")
        if let token { request.headers.append(("Authorization", "Bearer \(token)")) }
        let response = try await node.node.httpClient.execute(request)
        #expect(response.status == 200)
        let json = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        return json?["accounts"] as? [[String: Any]] ?? []
    }
}
