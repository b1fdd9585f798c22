@testable import Core
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// `/api/v2/search`, `/api/v1/accounts/search` and `/api/v1/tags/:name`.
@Suite("Client API: search")
struct SearchTests {
    private func names(_ r: TestResponse, _ key: String = "accounts", field: String = "username") -> [String] {
        ((r.json?[key] as? [[String: Any]]) ?? []).compactMap { $0[field] as? String }
    }

    @Test("accounts by username or display-name prefix, ignoring case, local and known remote")
    func accountPrefixes() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("viewer")
        let (alice, _) = try await t.user("alice")
        _ = try await t.user("alfred")
        _ = try await t.user("bob")
        try await t.node.profiles.update(alice, with: { var c = ProfileChanges(); c.displayName = "Wonder Photographer"; return c }())
        _ = try await AccountsTests.remoteAccount("alina", domain: "photos.example", in: t)
        try await t.withClient { client in
            let r = try await client.api(.get, "/api/v2/search?q=AL&type=accounts", token: token)
            #expect(r.status == .ok)
            #expect(Set(names(r)) == ["alice", "alfred", "alina"])
            #expect(names(r).last == "alina", "local accounts first")
            #expect(names(try await client.api(.get, "/api/v2/search?q=wonder")) == ["alice"])
            #expect(names(try await client.api(.get, "/api/v2/search?q=@alfred")) == ["alfred"])
            #expect(names(try await client.api(.get, "/api/v2/search?q=alina@photos.example"), field: "acct") == ["alina@photos.example"])
            #expect(names(try await client.api(.get, "/api/v2/search?q=al&limit=1&type=accounts")).count == 1)
            let offset = try await client.api(.get, "/api/v2/search?q=al&limit=2&offset=2&type=accounts", token: token)
            #expect(names(offset) == ["alina"])
            #expect(names(try await client.api(.get, "/api/v2/search?q=al%25")).isEmpty, "LIKE wildcards are literal")
        }
    }

    @Test("accounts that opt out of discovery only show to people they relate to")
    func discoverability() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (hidden, _) = try await t.user("hermit")
        let (friend, friendToken) = try await t.user("friend")
        let (_, strangerToken) = try await t.user("stranger")
        try await t.node.profiles.update(hidden, with: { var c = ProfileChanges(); c.discoverable = false; return c }())
        try await t.node.interactions.follow(hidden, by: friend)
        try await t.withClient { client in
            #expect(names(try await client.api(.get, "/api/v2/search?q=herm", token: strangerToken)).isEmpty)
            #expect(names(try await client.api(.get, "/api/v2/search?q=herm")).isEmpty)
            #expect(names(try await client.api(.get, "/api/v2/search?q=herm", token: friendToken)) == ["hermit"])
            let following = try await client.api(.get, "/api/v2/search?q=s&following=true", token: friendToken)
            #expect(names(following).isEmpty)
            #expect(names(try await client.api(.get, "/api/v2/search?q=h&following=true", token: friendToken)) == ["hermit"])
        }
    }

    @Test("resolve without a token or for an unreachable node still answers local matches")
    func resolveFallsBack() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        try await t.withClient { client in
            let anonymous = try await client.api(.get, "/api/v2/search?q=nobody@unreachable.invalid&resolve=true")
            #expect(anonymous.status == .ok)
            #expect(names(anonymous).isEmpty)
            let signedIn = try await client.api(.get, "/api/v2/search?q=nobody@unreachable.invalid&resolve=true&type=accounts", token: token)
            #expect(signedIn.status == .ok)
            #expect(names(signedIn).isEmpty)
            #expect(try await t.node.database.readSQL { try Account.fetchCount($0) } == 1)
        }
    }

    @Test("hashtags by prefix with their history, and posts by #tag that the viewer may see")
    func hashtagsAndPosts() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, _) = try await t.user("alice")
        let (bob, bobToken) = try await t.user("bob")
        let (_, carolToken) = try await t.user("carol")
        let open = try await t.node.posts.create(.init(text: "Evening #Sunset"), by: alice)
        let closed = try await t.node.posts.create(.init(text: "Just for followers #sunset", visibility: .private), by: alice)
        _ = try await t.node.posts.create(.init(text: "Early #sunrise"), by: bob)
        try await t.node.interactions.follow(alice, by: bob)
        try await t.withClient { client in
            let tags = try await client.api(.get, "/api/v2/search?q=%23sun&type=hashtags")
            #expect(tags.status == .ok)
            #expect(names(tags, "hashtags", field: "name") == ["sunset", "sunrise"] || names(tags, "hashtags", field: "name") == ["sunrise", "sunset"])
            let first = try #require((tags.json?["hashtags"] as? [[String: Any]])?.first)
            #expect((first["history"] as? [Any])?.count == 7)
            #expect((tags.json?["accounts"] as? [Any])?.isEmpty == true, "type=hashtags leaves the other lists empty")

            let forFollower = try await client.api(.get, "/api/v2/search?q=%23sunset&type=statuses", token: bobToken)
            #expect(names(forFollower, "statuses", field: "id") == [String(closed.id), String(open.id)])
            let forStranger = try await client.api(.get, "/api/v2/search?q=%23sunset&type=statuses", token: carolToken)
            #expect(names(forStranger, "statuses", field: "id") == [String(open.id)])
            let byAccount = try await client.api(.get, "/api/v2/search?q=%23sunrise&type=statuses&account_id=\(alice.id)")
            #expect(names(byAccount, "statuses", field: "id").isEmpty)
            let byURL = try await client.api(.get, "/api/v2/search?q=\(open.uri)&type=statuses")
            #expect(names(byURL, "statuses", field: "id") == [String(open.id)])
            _ = bob
        }
    }

    @Test("search needs q, ignores unknown types, and wants read:search from tokens")
    func searchErrors() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        _ = try await t.user("alice")
        let (_, writeOnly) = try await t.user("bob", scopes: "write")
        try await t.withClient { client in
            let missing = try await client.api(.get, "/api/v2/search")
            #expect(missing.status == .badRequest)
            #expect(missing.json?["error"] as? String != nil)
            #expect(try await client.api(.get, "/api/v2/search?q=%20").status == .badRequest)
            let unknown = try await client.api(.get, "/api/v2/search?q=alice&type=people")
            #expect(unknown.status == .ok)
            #expect(names(unknown).isEmpty)
            #expect(try await client.api(.get, "/api/v2/search?q=alice", token: writeOnly).status == .forbidden)
            #expect(try await client.api(.get, "/api/v2/search?q=alice", token: "bogus").status == .unauthorized)
        }
    }

    @Test("accounts/search lists accounts, following only on request")
    func accountsSearch() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, token) = try await t.user("alice")
        let (anna, _) = try await t.user("anna")
        _ = try await t.user("andrew")
        try await t.node.interactions.follow(anna, by: alice)
        try await t.withClient { client in
            let r = try await client.api(.get, "/api/v1/accounts/search?q=an", token: token)
            #expect(r.status == .ok)
            #expect(Set((r.jsonArray ?? []).compactMap { $0["username"] as? String }) == ["anna", "andrew"])
            let following = try await client.api(.get, "/api/v1/accounts/search?q=an&following=true", token: token)
            #expect((following.jsonArray ?? []).compactMap { $0["username"] as? String } == ["anna"])
            #expect(try await client.api(.get, "/api/v1/accounts/search").status == .badRequest)
            let (_, statusesOnly) = try await t.user("zed", scopes: "read:statuses")
            #expect(try await client.api(.get, "/api/v1/accounts/search?q=an", token: statusesOnly).status == .forbidden)
        }
    }

    @Test("a tag shows a week of use, newest day first; unknown tags are 404")
    func tag() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, token) = try await t.user("alice")
        let (bob, _) = try await t.user("bob")
        _ = try await t.node.posts.create(.init(text: "#Film one"), by: alice)
        _ = try await t.node.posts.create(.init(text: "#film two"), by: alice)
        _ = try await t.node.posts.create(.init(text: "#film three"), by: bob)
        try await t.withClient { client in
            let r = try await client.api(.get, "/api/v1/tags/Film", token: token)
            #expect(r.status == .ok)
            let tag = try r.entity(APITag.self)
            #expect(tag.name == "film" && tag.url == "\(t.node.urls.base)/tags/film")
            #expect(tag.following == false)
            let history = try #require(tag.history)
            #expect(history.count == 7)
            #expect(history[0].uses == "3" && history[0].accounts == "2")
            #expect(history.dropFirst().allSatisfy { $0.uses == "0" })
            let days = history.compactMap { Int($0.day) }
            #expect(days[0] % 86_400 == 0 && days[0] - days[1] == 86_400)
            let anonymous = try await client.api(.get, "/api/v1/tags/film")
            #expect(anonymous.json?["following"] == nil)
            #expect(try await client.api(.get, "/api/v1/tags/nothing").status == .notFound)
        }
    }
}
