@testable import Core
import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// `GET/POST /api/v1/notifications...`: list, filters, pagination, single lookup, dismiss, clear.
@Suite struct NotificationsTests {
    /// Alice has a photo post that Bob liked, a follow from Carol and a mention by Dave, in that order.
    struct Scene {
        let t: TestNode
        let alice: Account, bob: Account, carol: Account, dave: Account
        let token: String
        let post: Post

        static func make() async throws -> Scene {
            let t = try TestNode.make()
            let (alice, token) = try await t.user("alice")
            let (bob, _) = try await t.user("bob")
            let (carol, _) = try await t.user("carol")
            let (dave, _) = try await t.user("dave")
            let post = try await t.node.posts.create(.init(text: "Sunset over the bay"), by: alice)
            try await t.node.interactions.like(post.id, by: bob)
            try await t.node.interactions.follow(alice, by: carol)
            _ = try await t.node.posts.create(.init(text: "@alice look at this"), by: dave)
            return Scene(t: t, alice: alice, bob: bob, carol: carol, dave: dave, token: token, post: post)
        }
    }

    @Test func listsNewestFirstWithAccountsAndStatuses() async throws {
        let s = try await Scene.make()
        defer { s.t.remove() }
        try await s.t.withClient { client in
            let r = try await client.api(.get, "/api/v1/notifications", token: s.token)
            #expect(r.status == .ok)
            let items = try r.entity([APINotification].self)
            #expect(items.map(\.type) == ["mention", "follow", "favourite"])
            #expect(items.map(\.account.username) == ["dave", "carol", "bob"])
            #expect(items[2].status?.id == String(s.post.id))
            #expect(items[1].status == nil)
            #expect(items[0].status?.content.contains("look at this") == true)
        }
    }

    @Test func filtersByTypeExcludedTypeAndAccount() async throws {
        let s = try await Scene.make()
        defer { s.t.remove() }
        try await s.t.withClient { client in
            let only = try await client.api(.get, "/api/v1/notifications?types[]=favourite&types[]=follow", token: s.token)
            #expect(try only.entity([APINotification].self).map(\.type) == ["follow", "favourite"])
            let excluded = try await client.api(.get, "/api/v1/notifications?exclude_types[]=mention", token: s.token)
            #expect(try excluded.entity([APINotification].self).map(\.type) == ["follow", "favourite"])
            let byBob = try await client.api(.get, "/api/v1/notifications?account_id=\(s.bob.id)", token: s.token)
            #expect(try byBob.entity([APINotification].self).map(\.account.username) == ["bob"])
        }
    }

    @Test func pagesWithLinkHeader() async throws {
        let s = try await Scene.make()
        defer { s.t.remove() }
        try await s.t.withClient { client in
            let first = try await client.api(.get, "/api/v1/notifications?limit=2", token: s.token)
            let page1 = try first.entity([APINotification].self)
            #expect(page1.map(\.type) == ["mention", "follow"])
            let link = try #require(first.headers[HTTPField.Name("Link")!])
            #expect(link.contains("max_id=\(page1[1].id)>; rel=\"next\""))
            #expect(link.contains("min_id=\(page1[0].id)>; rel=\"prev\""))
            let next = try await client.api(.get, "/api/v1/notifications?limit=2&max_id=\(page1[1].id)", token: s.token)
            #expect(try next.entity([APINotification].self).map(\.type) == ["favourite"])
            let newer = try await client.api(.get, "/api/v1/notifications?min_id=\(page1[1].id)", token: s.token)
            #expect(try newer.entity([APINotification].self).map(\.type) == ["mention"])
            let empty = try await client.api(.get, "/api/v1/notifications?since_id=\(page1[0].id)", token: s.token)
            #expect(try empty.entity([APINotification].self).isEmpty)
            #expect(empty.headers[HTTPField.Name("Link")!] == nil)
        }
    }

    @Test func leavesOutBlockedAccountsAndDeletedPosts() async throws {
        let s = try await Scene.make()
        defer { s.t.remove() }
        try await s.t.node.interactions.block(s.bob, by: s.alice)
        let mention = try await s.t.node.database.readSQL { db in
            try #require(try Post.filter(Column("account_id") == s.dave.id).fetchOne(db))
        }
        try await s.t.node.posts.delete(mention.id, by: s.dave)
        try await s.t.withClient { client in
            let r = try await client.api(.get, "/api/v1/notifications", token: s.token)
            #expect(try r.entity([APINotification].self).map(\.type) == ["follow"])
            let count = try await client.api(.get, "/api/v1/notifications/unread_count", token: s.token)
            #expect(count.json?["count"] as? Int == 1)
        }
    }

    @Test func showsOneOwnNotificationOnly() async throws {
        let s = try await Scene.make()
        defer { s.t.remove() }
        let bobToken = try await s.t.node.database.writeSQL { db in
            try s.t.node.apiAuth.issueToken(appId: nil, accountId: s.bob.id, scopes: Scopes("read write"), in: Transaction(db)).token
        }
        try await s.t.withClient { client in
            let list = try await client.api(.get, "/api/v1/notifications", token: s.token)
            let id = try list.entity([APINotification].self)[1].id
            let mine = try await client.api(.get, "/api/v1/notifications/\(id)", token: s.token)
            #expect(mine.status == .ok)
            #expect(try mine.entity(APINotification.self).type == "follow")
            let theirs = try await client.api(.get, "/api/v1/notifications/\(id)", token: bobToken)
            #expect(theirs.status == .notFound)
            #expect(theirs.json?["error"] as? String == "Record not found")
            let unknown = try await client.api(.get, "/api/v1/notifications/12345", token: s.token)
            #expect(unknown.status == .notFound)
        }
    }

    @Test func dismissesOneAndClearsAll() async throws {
        let s = try await Scene.make()
        defer { s.t.remove() }
        let bobToken = try await s.t.node.database.writeSQL { db in
            try s.t.node.apiAuth.issueToken(appId: nil, accountId: s.bob.id, scopes: Scopes("read write"), in: Transaction(db)).token
        }
        try await s.t.withClient { client in
            let ids = try await client.api(.get, "/api/v1/notifications", token: s.token).entity([APINotification].self).map(\.id)
            let foreign = try await client.api(.post, "/api/v1/notifications/\(ids[0])/dismiss", token: bobToken)
            #expect(foreign.status == .notFound)
            let dismissed = try await client.api(.post, "/api/v1/notifications/\(ids[0])/dismiss", token: s.token)
            #expect(dismissed.status == .ok)
            #expect(dismissed.text == "{}")
            let again = try await client.api(.post, "/api/v1/notifications/\(ids[0])/dismiss", token: s.token)
            #expect(again.status == .notFound)
            let legacy = try await client.api(.post, "/api/v1/notifications/dismiss", token: s.token, form: "id=\(ids[1])")
            #expect(legacy.status == .ok)
            let left = try await client.api(.get, "/api/v1/notifications", token: s.token).entity([APINotification].self)
            #expect(left.map(\.id) == [ids[2]])
            let cleared = try await client.api(.post, "/api/v1/notifications/clear", token: s.token)
            #expect(cleared.status == .ok)
            let none = try await client.api(.get, "/api/v1/notifications", token: s.token).entity([APINotification].self)
            #expect(none.isEmpty)
        }
    }

    @Test func requiresTokenAndScopes() async throws {
        let s = try await Scene.make()
        defer { s.t.remove() }
        let (_, statusesOnly) = try await s.t.user("erin", scopes: "read:statuses write:statuses")
        let (_, readOnly) = try await s.t.user("frank", scopes: "read")
        try await s.t.withClient { client in
            #expect(try await client.api(.get, "/api/v1/notifications").status == .unauthorized)
            #expect(try await client.api(.get, "/api/v1/notifications", token: "not-a-token").status == .unauthorized)
            #expect(try await client.api(.get, "/api/v1/notifications", token: statusesOnly).status == .forbidden)
            #expect(try await client.api(.get, "/api/v1/notifications", token: readOnly).status == .ok)
            #expect(try await client.api(.post, "/api/v1/notifications/clear", token: readOnly).status == .forbidden)
            #expect(try await client.api(.post, "/api/v1/notifications/1/dismiss").status == .unauthorized)
            // Nothing was cleared by the refused requests.
            let r = try await client.api(.get, "/api/v1/notifications", token: s.token)
            #expect(try r.entity([APINotification].self).count == 3)
        }
    }
}
