@testable import Core
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
    /// then mentions her; gus and then erin boost it. Two days earlier, henry liked it.
    struct Scene {
        let t: TestNode
        let alice: Account, bob: Account, carol: Account, dave: Account, erin: Account, frank: Account, gus: Account, henry: Account
        /// Alice's and bob's tokens.
        let token: String, bobToken: String
        let post: Post

        static func make() async throws -> Scene {
            try await Self.awayFromWindowEnd()
            let t = try TestNode.make()
            let (alice, token) = try await t.user("alice")
            let (bob, bobToken) = try await t.user("bob")
            var others = [bob]
            for name in ["carol", "dave", "erin", "frank", "gus", "henry"] { others.append(try await t.user(name).account) }
            let (carol, dave, erin, frank, gus, henry) = (others[1], others[2], others[3], others[4], others[5], others[6])
            let post = try await t.node.posts.create(.init(text: "Sunset over the bay"), by: alice)
            // Two days ago: a notification id made then, as a like of that day got.
            let then = Date(timeIntervalSinceNow: -2 * 86400)
            let earlier = AccountNotification(id: Snowflake.at(then), accountId: alice.id, fromAccountId: henry.id, type: .favourite,
                                              postId: post.id, createdAt: then)
            try await t.node.database.write { db in try db.notifications.add(earlier) }
            try await t.node.interactions.like(post.id, by: bob)
            try await t.node.interactions.like(post.id, by: carol)
            try await t.node.interactions.follow(alice, by: erin)
            try await t.node.interactions.follow(alice, by: frank)
            try await t.node.interactions.like(post.id, by: dave)
            _ = try await t.node.posts.create(.init(text: "@alice look at this"), by: dave)
            _ = try await t.node.interactions.reblog(post.id, by: gus)
            _ = try await t.node.interactions.reblog(post.id, by: erin)
            return Scene(t: t, alice: alice, bob: bob, carol: carol, dave: dave, erin: erin, frank: frank, gus: gus, henry: henry,
                         token: token, bobToken: bobToken, post: post)
        }

        func ids(_ accounts: Account...) -> [String] { accounts.map { String($0.id) } }

        /// Waits out the last half minute of a twelve-hour window, so that the scene's likes,
        /// follows and boosts fall in one window however the clock stands.
        static func awayFromWindowEnd() async throws {
            let window: Int64 = 12 * 3600 * 1000
            let left = window - Int64(Date().timeIntervalSince1970 * 1000) % window
            if left < 30_000 { try await Task.sleep(for: .milliseconds(left + 100)) }
        }

        /// The ids of alice's v1 notifications, oldest first.
        func notificationIds(_ client: some TestClientProtocol) async throws -> [String] {
            try await client.api(.get, "/api/v1/notifications", token: token).entity([APINotification].self).map(\.id).reversed()
        }
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
            #expect(groups.map(\.notificationsCount) == [2, 1, 3, 2, 1])
            #expect(groups[0].sampleAccountIds == s.ids(s.erin, s.gus))
            #expect(groups[2].sampleAccountIds == s.ids(s.dave, s.carol, s.bob))
            #expect(groups[3].sampleAccountIds == s.ids(s.frank, s.erin))
            #expect(groups[4].sampleAccountIds == s.ids(s.henry), "a like of two days ago is a group of its own")
            #expect(groups[2].groupKey != groups[4].groupKey)
            #expect(groups[2].statusId == String(s.post.id) && groups[0].statusId == String(s.post.id))
            #expect(groups[3].statusId == nil)
            #expect(groups[1].groupKey == "ungrouped-\(groups[1].mostRecentNotificationId)")
            // A whole (last) page: each group's oldest notification is on it.
            let (henryLike, bobLike, _, erinFollow, _, _, _, gusBoost, erinBoost) = try await {
                let ids = try await s.notificationIds(client)
                return (ids[0], ids[1], ids[2], ids[3], ids[4], ids[5], ids[6], ids[7], ids[8])
            }()
            #expect(groups.map(\.pageMinId) == [gusBoost, groups[1].mostRecentNotificationId, bobLike, erinFollow, henryLike])
            #expect(groups.map(\.pageMaxId) == groups.map(\.mostRecentNotificationId))
            #expect(groups[0].mostRecentNotificationId == erinBoost)
            #expect(groups[0].latestPageNotificationAt?.hasSuffix("Z") == true)
            // Every account and post the groups name, each once.
            #expect(Set(page.accounts.map(\.id)) == Set(s.ids(s.gus, s.dave, s.carol, s.bob, s.frank, s.erin, s.henry)))
            #expect(page.accounts.count == 7)
            #expect(page.statuses.count == 2)
            #expect(page.statuses.first?.id == String(s.post.id))
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
            #expect(followsOnly.map(\.type) == ["reblog", "reblog", "mention", "favourite", "follow", "favourite", "favourite", "favourite"])
            #expect(followsOnly.filter { $0.type != "follow" }.allSatisfy { $0.notificationsCount == 1 && $0.groupKey.hasPrefix("ungrouped-") })
            let likes = try await client.api(.get, "/api/v2/notifications?types[]=favourite", token: s.token)
                .entity(APIGroupedNotificationsResults.self).notificationGroups
            #expect(likes.map(\.notificationsCount) == [3, 1])
            let byCarol = try await client.api(.get, "/api/v2/notifications?account_id=\(s.carol.id)", token: s.token)
                .entity(APIGroupedNotificationsResults.self).notificationGroups
            #expect(byCarol.map(\.type) == ["favourite"], "carol's like finds its group")
            // Counted up to the page's newest notification, carol's like, as Mastodon counts.
            #expect(byCarol.first?.notificationsCount == 2)
            #expect(byCarol.first?.sampleAccountIds == s.ids(s.carol, s.bob))

            // A hide filter on dave's mention leaves its group and its post out.
            let filter = try await client.api(.post, "/api/v2/filters", token: s.token, json: [
                "title": "Looks", "context": ["notifications"], "filter_action": "hide", "keywords_attributes": [["keyword": "look"]],
            ])
            #expect(filter.status == .ok)
            let filtered = try await client.api(.get, "/api/v2/notifications", token: s.token).entity(APIGroupedNotificationsResults.self)
            #expect(filtered.notificationGroups.map(\.type) == ["reblog", "favourite", "follow", "favourite"])
            #expect(filtered.statuses.map(\.id) == [String(s.post.id)])
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

    /// Sixty likes after one follow: the walk reads past its first chunk to find the second
    /// group, and an ascending page stops at its limit.
    @Test func readsOnPastAChunkOfOneGroup() async throws {
        try await Scene.awayFromWindowEnd()
        let t = try TestNode.make()
        defer { t.remove() }
        let (alice, token) = try await t.user("alice")
        let post = try await t.node.posts.create(.init(text: "Everyone likes this"), by: alice)
        let fans = try await t.node.database.writeSQL { db in
            try (0..<61).map { i in try Account(username: "fan\(i)", domain: "fans.example", uri: "https://fans.example/users/fan\(i)").inserted(db) }
        }
        try await t.node.database.write { db in
            try db.notifications.add(AccountNotification(accountId: alice.id, fromAccountId: fans[60].id, type: .follow, postId: nil))
            for fan in fans.prefix(60) {
                try db.notifications.add(AccountNotification(accountId: alice.id, fromAccountId: fan.id, type: .favourite, postId: post.id))
            }
        }
        try await t.withClient { client in
            let first = try await client.api(.get, "/api/v2/notifications?limit=2", token: token)
            let page = try first.entity(APIGroupedNotificationsResults.self)
            #expect(page.notificationGroups.map(\.type) == ["favourite", "follow"])
            #expect(page.notificationGroups.map(\.notificationsCount) == [60, 1])
            #expect(page.notificationGroups[0].sampleAccountIds == fans[52..<60].reversed().map { String($0.id) })
            #expect(page.accounts.count == 9)
            let follow = page.notificationGroups[1].mostRecentNotificationId
            let link = try #require(first.headers[HTTPField.Name("Link")!])
            #expect(link.contains("max_id=\(follow)>; rel=\"next\""))

            // Upwards from below the follow: the follow, then the oldest like make two groups.
            let below = String(try #require(Int64(follow)) - 1)
            let up = try await client.api(.get, "/api/v2/notifications?limit=2&min_id=\(below)", token: token)
            let upGroups = try up.entity(APIGroupedNotificationsResults.self).notificationGroups
            #expect(upGroups.map(\.type) == ["favourite", "follow"])
            #expect(upGroups[0].notificationsCount == 1, "counted up to the page's newest, the oldest like")
            #expect(upGroups[0].sampleAccountIds == [String(fans[0].id)])
            let upLink = try #require(up.headers[HTTPField.Name("Link")!])
            #expect(upLink.contains("min_id=\(upGroups[0].mostRecentNotificationId)>; rel=\"prev\""))
        }
    }

    @Test func partialAvatarsKeepOnlyEachGroupsNewestWhole() async throws {
        let s = try await Scene.make()
        defer { s.t.remove() }
        try await s.t.withClient { client in
            let r = try await client.api(.get, "/api/v2/notifications?expand_accounts=partial_avatars", token: s.token)
            let page = try r.entity(APIGroupedNotificationsResults.self)
            // Erin is the newest booster and an older follower: whole, and not partial as well.
            #expect(page.accounts.map(\.id) == s.ids(s.erin, s.dave, s.frank, s.henry))
            #expect(page.partialAccounts?.map(\.id) == s.ids(s.gus, s.carol, s.bob))
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

            let leadingZero = likes.groupKey.replacingOccurrences(of: "favourite-", with: "favourite-0")
            for key in ["favourite-1", "reblog-x-1", "ungrouped-", "follow-99999999999999999", "nope", "ungrouped--1", leadingZero] {
                #expect(try await client.api(.get, "/api/v2/notifications/\(key)", token: s.token).status == .notFound, "\(key)")
            }
            #expect(try await client.api(.get, "/api/v2/notifications/\(likes.groupKey)", token: s.bobToken).status == .notFound)
            let notBobs = try await client.api(.get, "/api/v2/notifications/\(likes.groupKey)/accounts", token: s.bobToken)
            #expect(notBobs.status == .ok && notBobs.text == "[]")
            // Bob dismissing alice's group answers as Mastodon does, and deletes nothing of hers.
            #expect(try await client.api(.post, "/api/v2/notifications/\(likes.groupKey)/dismiss", token: s.bobToken).status == .ok)
            let mention = try #require(groups.first { $0.type == "mention" })
            #expect(try await client.api(.post, "/api/v2/notifications/\(mention.groupKey)/dismiss", token: s.bobToken).status == .ok)
            #expect(try await s.notificationIds(client).count == 9)

            let dismissed = try await client.api(.post, "/api/v2/notifications/\(likes.groupKey)/dismiss", token: s.token)
            #expect(dismissed.status == .ok)
            #expect(dismissed.text == "{}")
            let left = try await client.api(.get, "/api/v1/notifications?types[]=favourite", token: s.token).entity([APINotification].self)
            #expect(left.map(\.account.id) == s.ids(s.henry), "the three likes of the group are gone, the older one stays")
            #expect(try await client.api(.get, "/api/v2/notifications/\(likes.groupKey)", token: s.token).status == .notFound)
            let twice = try await client.api(.post, "/api/v2/notifications/\(likes.groupKey)/dismiss", token: s.token)
            #expect(twice.status == .ok)
            let single = try await client.api(.post, "/api/v2/notifications/\(mention.groupKey)/dismiss", token: s.token)
            #expect(single.status == .ok)
            #expect(try await s.notificationIds(client).count == 5)
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
            #expect(try await count("/api/v2/notifications/unread_count?grouped_types[]=follow") == 8)
            #expect(try await count("/api/v1/notifications/unread_count") == 9)
            let groups = try await client.api(.get, "/api/v2/notifications", token: s.token).entity(APIGroupedNotificationsResults.self).notificationGroups
            let mention = try #require(groups.first { $0.type == "mention" })
            let marked = try await client.api(.post, "/api/v1/markers", token: s.token, form: "notifications[last_read_id]=\(mention.mostRecentNotificationId)")
            #expect(marked.status == .ok)
            #expect(try await count("/api/v2/notifications/unread_count") == 1)
            #expect(try await count("/api/v1/notifications/unread_count") == 2)
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
