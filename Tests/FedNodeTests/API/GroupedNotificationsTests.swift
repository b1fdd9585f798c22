import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// `/api/v2/notifications...`, Mastodon 4.3's grouped notifications: likes and boosts of one
/// post and new followers within twelve hours as one group each; pages, single groups, their
/// accounts, dismissal and the unread count by the notifications marker.
@Suite struct GroupedNotificationsTests {
    /// Alice's photo post is liked by bob and carol; erin and frank follow her; dave likes it too,
    /// then mentions her; gus boosts it. Two days earlier, henry liked it.
    struct Scene {
        let t: TestNode
        let alice: Account, bob: Account, carol: Account, dave: Account, erin: Account, frank: Account, gus: Account, henry: Account
        let token: String
        let post: Post

        static func make() async throws -> Scene {
            let t = try TestNode.make()
            let (alice, token) = try await t.user("alice")
            var others: [Account] = []
            for name in ["bob", "carol", "dave", "erin", "frank", "gus", "henry"] { others.append(try await t.user(name).account) }
            let (bob, carol, dave, erin, frank, gus, henry) = (others[0], others[1], others[2], others[3], others[4], others[5], others[6])
            let post = try await t.node.posts.create(.init(text: "Sunset over the bay"), by: alice)
            // Two days ago: a notification id made then, as a like of that day got.
            let earlier = AccountNotification(id: Snowflake.at(Date(timeIntervalSinceNow: -2 * 86400)), accountId: alice.id,
                                              fromAccountId: henry.id, type: .favourite, postId: post.id)
            try await t.node.database.write { db in try db.notifications.add(earlier) }
            try await t.node.interactions.like(post.id, by: bob)
            try await t.node.interactions.like(post.id, by: carol)
            try await t.node.interactions.follow(alice, by: erin)
            try await t.node.interactions.follow(alice, by: frank)
            try await t.node.interactions.like(post.id, by: dave)
            _ = try await t.node.posts.create(.init(text: "@alice look at this"), by: dave)
            _ = try await t.node.interactions.reblog(post.id, by: gus)
            return Scene(t: t, alice: alice, bob: bob, carol: carol, dave: dave, erin: erin, frank: frank, gus: gus, henry: henry,
                         token: token, post: post)
        }

        func ids(_ accounts: Account...) -> [String] { accounts.map { String($0.id) } }
    }

    @Test func groupsLikesBoostsAndFollowsWithinTwelveHours() async throws {
        let s = try await Scene.make()
        defer { s.t.remove() }
        try await s.t.withClient { client in
            let r = try await client.api(.get, "/api/v2/notifications", token: s.token)
            #expect(r.status == .ok)
            let page = try r.entity(APIGroupedNotificationsResults.self)
            let groups = page.notificationGroups
            #expect(groups.map(\.type) == ["reblog", "mention", "favourite", "follow", "favourite"])
            #expect(groups.map(\.notificationsCount) == [1, 1, 3, 2, 1])
            #expect(groups[2].sampleAccountIds == s.ids(s.dave, s.carol, s.bob))
            #expect(groups[3].sampleAccountIds == s.ids(s.frank, s.erin))
            #expect(groups[4].sampleAccountIds == s.ids(s.henry), "a like of two days ago is a group of its own")
            #expect(groups[2].groupKey != groups[4].groupKey)
            #expect(groups[2].statusId == String(s.post.id) && groups[0].statusId == String(s.post.id))
            #expect(groups[3].statusId == nil)
            #expect(groups[1].groupKey == "ungrouped-\(groups[1].mostRecentNotificationId)")
            #expect(groups.allSatisfy { $0.pageMinId != nil && $0.pageMaxId == $0.mostRecentNotificationId && $0.latestPageNotificationAt != nil })
            // Every account and post the groups name, each once.
            #expect(Set(page.accounts.map(\.id)) == Set(s.ids(s.gus, s.dave, s.carol, s.bob, s.frank, s.erin, s.henry)))
            #expect(page.accounts.count == 7)
            #expect(page.statuses.count == 2)
            #expect(Set(page.statuses.map(\.id)).contains(String(s.post.id)))
            #expect(page.partialAccounts == nil)
            #expect(r.json?["partial_accounts"] == nil)

            // The v1 list gives each notification the key of its group.
            let v1 = try await client.api(.get, "/api/v1/notifications?types[]=favourite", token: s.token).entity([APINotification].self)
            #expect(v1.map(\.groupKey) == [groups[2].groupKey, groups[2].groupKey, groups[2].groupKey, groups[4].groupKey])
        }
    }

    @Test func groupedTypesAndFiltersChooseWhatGroups() async throws {
        let s = try await Scene.make()
        defer { s.t.remove() }
        try await s.t.withClient { client in
            let followsOnly = try await client.api(.get, "/api/v2/notifications?grouped_types[]=follow", token: s.token)
                .entity(APIGroupedNotificationsResults.self).notificationGroups
            #expect(followsOnly.map(\.type) == ["reblog", "mention", "favourite", "follow", "favourite", "favourite", "favourite"])
            #expect(followsOnly.filter { $0.type == "favourite" }.allSatisfy { $0.notificationsCount == 1 && $0.groupKey.hasPrefix("ungrouped-") })
            let likes = try await client.api(.get, "/api/v2/notifications?types[]=favourite", token: s.token)
                .entity(APIGroupedNotificationsResults.self).notificationGroups
            #expect(likes.map(\.notificationsCount) == [3, 1])
            let byCarol = try await client.api(.get, "/api/v2/notifications?account_id=\(s.carol.id)", token: s.token)
                .entity(APIGroupedNotificationsResults.self).notificationGroups
            #expect(byCarol.map(\.type) == ["favourite"], "carol's like finds its group")
            // Counted up to the page's newest notification, carol's like, as Mastodon counts.
            #expect(byCarol.first?.notificationsCount == 2)
            #expect(byCarol.first?.sampleAccountIds == s.ids(s.carol, s.bob))
        }
    }

    @Test func pagesByNotificationIdsWithLinkHeader() async throws {
        let s = try await Scene.make()
        defer { s.t.remove() }
        try await s.t.withClient { client in
            let first = try await client.api(.get, "/api/v2/notifications?limit=2", token: s.token)
            let page1 = try first.entity(APIGroupedNotificationsResults.self).notificationGroups
            #expect(page1.map(\.type) == ["reblog", "mention"])
            let link = try #require(first.headers[HTTPField.Name("Link")!])
            let oldest = page1[1].mostRecentNotificationId
            #expect(link.contains("max_id=\(oldest)") && link.contains("rel=\"next\""))
            #expect(link.contains("min_id=\(page1[0].mostRecentNotificationId)") && link.contains("limit=2"))

            let second = try await client.api(.get, "/api/v2/notifications?limit=2&max_id=\(oldest)", token: s.token)
            let page2 = try second.entity(APIGroupedNotificationsResults.self).notificationGroups
            #expect(page2.map(\.type) == ["favourite", "follow"])
            // The likes group counts all three of its likes, but only dave's is on this page.
            #expect(page2[0].notificationsCount == 3)
            #expect(page2[0].pageMinId == page2[0].mostRecentNotificationId)

            let newer = try await client.api(.get, "/api/v2/notifications?min_id=\(oldest)", token: s.token)
            #expect(try newer.entity(APIGroupedNotificationsResults.self).notificationGroups.map(\.type) == ["reblog"])
            let none = try await client.api(.get, "/api/v2/notifications?since_id=\(page1[0].mostRecentNotificationId)", token: s.token)
            #expect(try none.entity(APIGroupedNotificationsResults.self).notificationGroups.isEmpty)
            #expect(none.headers[HTTPField.Name("Link")!] == nil)
        }
    }

    @Test func partialAvatarsKeepOnlyEachGroupsNewestWhole() async throws {
        let s = try await Scene.make()
        defer { s.t.remove() }
        try await s.t.withClient { client in
            let r = try await client.api(.get, "/api/v2/notifications?expand_accounts=partial_avatars", token: s.token)
            let page = try r.entity(APIGroupedNotificationsResults.self)
            #expect(Set(page.accounts.map(\.id)) == Set(s.ids(s.gus, s.dave, s.frank, s.henry)))
            #expect(Set(page.partialAccounts?.map(\.id) ?? []) == Set(s.ids(s.carol, s.bob, s.erin)))
            let partial = try #require((r.json?["partial_accounts"] as? [[String: Any]])?.first)
            #expect(Set(partial.keys) == ["id", "acct", "locked", "bot", "url", "avatar", "avatar_static"])

            let bad = try await client.api(.get, "/api/v2/notifications?expand_accounts=everything", token: s.token)
            #expect(bad.status == .badRequest)
            #expect((bad.json?["error"] as? String)?.contains("expand_accounts") == true)
        }
    }

    @Test func showsListsAccountsOfAndDismissesOneGroup() async throws {
        let s = try await Scene.make()
        defer { s.t.remove() }
        let bobToken = try await s.t.node.database.writeSQL { db in
            try s.t.node.apiAuth.issueToken(appId: nil, accountId: s.bob.id, scopes: Scopes("read write"), in: Transaction(db)).token
        }
        try await s.t.withClient { client in
            let groups = try await client.api(.get, "/api/v2/notifications", token: s.token).entity(APIGroupedNotificationsResults.self).notificationGroups
            let likes = try #require(groups.first { $0.notificationsCount == 3 })
            let shown = try await client.api(.get, "/api/v2/notifications/\(likes.groupKey)", token: s.token)
            #expect(shown.status == .ok)
            let one = try shown.entity(APIGroupedNotificationsResults.self)
            #expect(one.notificationGroups.map(\.notificationsCount) == [3])
            #expect(one.notificationGroups.first?.pageMinId == nil, "page fields belong to pages")
            #expect(one.statuses.map(\.id) == [String(s.post.id)])
            let accounts = try await client.api(.get, "/api/v2/notifications/\(likes.groupKey)/accounts", token: s.token)
            #expect(try accounts.entity([APIAccount].self).map(\.id) == s.ids(s.dave, s.carol, s.bob))

            for key in ["favourite-1", "reblog-x-1", "ungrouped-", "follow-99999999999999999", "nope"] {
                #expect(try await client.api(.get, "/api/v2/notifications/\(key)", token: s.token).status == .notFound, "\(key)")
            }
            #expect(try await client.api(.get, "/api/v2/notifications/\(likes.groupKey)", token: bobToken).status == .notFound)
            #expect(try await client.api(.post, "/api/v2/notifications/\(likes.groupKey)/dismiss", token: bobToken).status == .notFound)

            let dismissed = try await client.api(.post, "/api/v2/notifications/\(likes.groupKey)/dismiss", token: s.token)
            #expect(dismissed.status == .ok)
            #expect(dismissed.text == "{}")
            let left = try await client.api(.get, "/api/v1/notifications?types[]=favourite", token: s.token).entity([APINotification].self)
            #expect(left.map(\.account.id) == s.ids(s.henry), "the three likes of the group are gone, the older one stays")
            #expect(try await client.api(.get, "/api/v2/notifications/\(likes.groupKey)", token: s.token).status == .notFound)
        }
    }

    @Test func unreadCountsGroupsAfterTheMarker() async throws {
        let s = try await Scene.make()
        defer { s.t.remove() }
        try await s.t.withClient { client in
            func count(_ path: String) async throws -> Int? {
                try await client.api(.get, path, token: s.token).json?["count"] as? Int
            }
            #expect(try await count("/api/v2/notifications/unread_count") == 5)
            #expect(try await count("/api/v2/notifications/unread_count?limit=2") == 2)
            #expect(try await count("/api/v2/notifications/unread_count?grouped_types[]=follow") == 7)
            #expect(try await count("/api/v1/notifications/unread_count") == 8)
            let groups = try await client.api(.get, "/api/v2/notifications", token: s.token).entity(APIGroupedNotificationsResults.self).notificationGroups
            let mention = try #require(groups.first { $0.type == "mention" })
            let marked = try await client.api(.post, "/api/v1/markers", token: s.token, form: "notifications[last_read_id]=\(mention.mostRecentNotificationId)")
            #expect(marked.status == .ok)
            #expect(try await count("/api/v2/notifications/unread_count") == 1)
            #expect(try await count("/api/v1/notifications/unread_count") == 1)
        }
    }

    @Test func requiresTokenAndScopes() async throws {
        let s = try await Scene.make()
        defer { s.t.remove() }
        let (_, readOnly) = try await s.t.user("ivy", scopes: "read")
        let (_, statusesOnly) = try await s.t.user("jan", scopes: "read:statuses")
        try await s.t.withClient { client throws in
            #expect(try await client.api(.get, "/api/v2/notifications").status == .unauthorized)
            #expect(try await client.api(.get, "/api/v2/notifications", token: statusesOnly).status == .forbidden)
            #expect(try await client.api(.get, "/api/v2/notifications", token: readOnly).status == .ok)
            #expect(try await client.api(.post, "/api/v2/notifications/ungrouped-1/dismiss", token: readOnly).status == .forbidden)
        }
    }
}
