@testable import Core
import Foundation
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// Filters v2: CRUD with keywords and posts, `filtered` on statuses, `hide` dropping posts in
/// their context, whole-word matching, expiry, and the v1 view.
@Suite("Client API: filters")
struct FiltersTests {
    @Test("a filter is created with keywords, changed, shown in v1 and deleted; bad input is 422")
    func crud() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        let (_, other) = try await t.user("bob")
        try await t.withClient { client in
            let created = try await client.api(.post, "/api/v2/filters", token: token, json: [
                "title": "Spoilers", "context": ["home", "public"], "filter_action": "warn", "expires_in": 3600,
                "keywords_attributes": [["keyword": "finale", "whole_word": true], ["keyword": "ending", "whole_word": false]],
            ])
            #expect(created.status == .ok)
            let filter = try created.entity(APIFilter.self)
            #expect(filter.title == "Spoilers" && filter.context == ["home", "public"] && filter.filterAction == "warn")
            #expect(filter.keywords.map(\.keyword) == ["finale", "ending"] && filter.expiresAt != nil)
            let finale = try #require(filter.keywords.first)

            let changed = try await client.api(.put, "/api/v2/filters/\(filter.id)", token: token, json: [
                "filter_action": "hide", "expires_in": "",
                "keywords_attributes": [["id": finale.id, "_destroy": true], ["keyword": "twist"]],
            ]).entity(APIFilter.self)
            #expect(changed.filterAction == "hide" && changed.expiresAt == nil)
            #expect(changed.keywords.map(\.keyword) == ["ending", "twist"])

            let added = try await client.api(.post, "/api/v2/filters/\(filter.id)/keywords", token: token, json: ["keyword": "cliffhanger"])
            let keyword = try added.entity(APIFilterKeyword.self)
            #expect(keyword.wholeWord, "whole_word defaults to true")
            let renamed = try await client.api(.put, "/api/v2/filters/keywords/\(keyword.id)", token: token, json: ["whole_word": false])
            #expect(try renamed.entity(APIFilterKeyword.self).wholeWord == false)
            #expect(try await client.api(.get, "/api/v2/filters/\(filter.id)/keywords", token: token).entity([APIFilterKeyword].self).count == 3)
            #expect(try await client.api(.get, "/api/v2/filters/keywords/\(keyword.id)", token: other).status == .notFound)
            #expect(try await client.api(.delete, "/api/v2/filters/keywords/\(keyword.id)", token: token).status == .ok)

            let v1 = try await client.api(.get, "/api/v1/filters", token: token).entity([APIFilterV1].self)
            #expect(v1.map(\.phrase) == ["ending", "twist"] && v1.allSatisfy { $0.irreversible && $0.context == ["home", "public"] })

            for body: [String: Any] in [["context": ["home"]], ["title": "x"], ["title": "x", "context": ["inbox"]],
                                        ["title": "x", "context": ["home"], "filter_action": "explode"],
                                        ["title": "x", "context": ["home"], "expires_in": "soon"]] {
                #expect(try await client.api(.post, "/api/v2/filters", token: token, json: body).status == .unprocessableContent)
            }
            #expect(try await client.api(.get, "/api/v2/filters/\(filter.id)", token: other).status == .notFound)
            #expect(try await client.api(.get, "/api/v2/filters", token: other).entity([APIFilter].self).isEmpty)
            #expect(try await client.api(.delete, "/api/v2/filters/\(filter.id)", token: token).status == .ok)
            #expect(try await client.api(.get, "/api/v2/filters", token: token).entity([APIFilter].self).isEmpty)
        }
    }

    @Test("v1 filters are created, changed and deleted as one keyword of a filter of their own")
    func v1Writes() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, token) = try await t.user("alice")
        let (_, bobToken) = try await t.user("bob")
        try await t.withClient { client in
            let created = try await client.api(.post, "/api/v1/filters", token: token,
                                               json: ["phrase": "spoiler", "context": ["home", "public"], "irreversible": true, "whole_word": false])
            #expect(created.status == .ok)
            let v1 = try #require(created.json)
            let id = try #require(v1["id"] as? String)
            #expect(v1["phrase"] as? String == "spoiler")
            #expect(v1["context"] as? [String] == ["home", "public"])
            #expect(v1["irreversible"] as? Bool == true)
            #expect(v1["whole_word"] as? Bool == false)
            let v2 = try #require(try await client.api(.get, "/api/v2/filters", token: token).jsonArray?.first)
            #expect(v2["title"] as? String == "spoiler")
            #expect(v2["filter_action"] as? String == "hide")

            let changed = try await client.api(.put, "/api/v1/filters/\(id)", token: token,
                                               json: ["phrase": "spoilers", "context": ["home"], "irreversible": false])
            #expect(changed.status == .ok)
            #expect(changed.json?["phrase"] as? String == "spoilers")
            #expect(changed.json?["context"] as? [String] == ["home"])
            #expect(changed.json?["irreversible"] as? Bool == false)
            #expect(try await client.api(.get, "/api/v1/filters/\(id)", token: token).json?["phrase"] as? String == "spoilers")
            #expect(try await client.api(.put, "/api/v1/filters/\(id)", token: bobToken, json: ["phrase": "x"]).status == .notFound)
            #expect(try await client.api(.post, "/api/v1/filters", token: token, json: ["phrase": " ", "context": ["home"]]).status
                == .unprocessableContent)
            #expect(try await client.api(.post, "/api/v1/filters", token: token, json: ["phrase": "x", "context": ["nowhere"]]).status
                == .unprocessableContent)

            #expect(try await client.api(.delete, "/api/v1/filters/\(id)", token: bobToken).status == .notFound)
            #expect(try await client.api(.delete, "/api/v1/filters/\(id)", token: token).status == .ok)
            #expect(try await client.api(.get, "/api/v1/filters", token: token).jsonArray?.isEmpty == true)
            #expect(try await client.api(.get, "/api/v2/filters", token: token).jsonArray?.isEmpty == true)
        }
    }

    @Test("warn marks matching statuses with filtered; hide removes them; whole words and contexts count")
    func applying() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (bob, bobToken) = try await t.user("bob")
        try await t.node.interactions.follow(bob, by: alice)
        try await t.withClient { client in
            let cat = try await StatusFixtures.post(client, token: bobToken, "My CAT sleeps")
            let concatenate = try await StatusFixtures.post(client, token: bobToken, "concatenate strings")
            let spoiler = try await StatusFixtures.post(client, token: bobToken, "look", extra: ["spoiler_text": "Election results"])
            _ = try await client.api(.post, "/api/v2/filters", token: aliceToken, json: [
                "title": "Cats", "context": ["home"], "filter_action": "warn", "keywords_attributes": [["keyword": "cat", "whole_word": true]],
            ])
            _ = try await client.api(.post, "/api/v2/filters", token: aliceToken, json: [
                "title": "Politics", "context": ["home"], "filter_action": "hide", "keywords_attributes": [["keyword": "election"]],
            ])
            let home = try await client.api(.get, "/api/v1/timelines/home", token: aliceToken)
            #expect(StatusFixtures.ids(home) == [concatenate, cat], "the hidden post is gone from home")
            let statuses = try home.entity([APIStatus].self)
            #expect(statuses.first { $0.id == cat }?.filtered?.first?.keywordMatches == ["cat"])
            #expect(statuses.first { $0.id == cat }?.filtered?.first?.filter.title == "Cats")
            #expect(statuses.first { $0.id == concatenate }?.filtered == [], "whole word: no match inside a word")

            let publicTimeline = try await client.api(.get, "/api/v1/timelines/public", token: aliceToken)
            #expect(StatusFixtures.ids(publicTimeline).contains(spoiler), "the filters only apply to home")
            #expect(try publicTimeline.entity([APIStatus].self).allSatisfy { $0.filtered == [] })
            let anonymous = try await client.api(.get, "/api/v1/timelines/public")
            #expect(anonymous.jsonArray?.first?["filtered"] == nil, "no filtered for anonymous viewers")
        }
    }

    @Test("a filtered post matches by status; expired filters do not apply")
    func statusesAndExpiry() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (bob, bobToken) = try await t.user("bob")
        try await t.node.interactions.follow(bob, by: alice)
        try await t.withClient { client in
            let post = try await StatusFixtures.post(client, token: bobToken, "an ordinary photo")
            let filter = try await client.api(.post, "/api/v2/filters", token: aliceToken, json: ["title": "This one", "context": ["home"]])
                .entity(APIFilter.self)
            let added = try await client.api(.post, "/api/v2/filters/\(filter.id)/statuses", token: aliceToken, json: ["status_id": post])
            let row = try added.entity(APIFilterStatus.self)
            #expect(row.statusId == post)
            #expect(try await client.api(.get, "/api/v2/filters/\(filter.id)/statuses", token: aliceToken).entity([APIFilterStatus].self) == [row])
            #expect(try await client.api(.post, "/api/v2/filters/\(filter.id)/statuses", token: aliceToken, json: ["status_id": "1"]).status
                == .notFound)
            let home = try await client.api(.get, "/api/v1/timelines/home", token: aliceToken).entity([APIStatus].self)
            #expect(home.first?.filtered?.first?.statusMatches == [post])

            try await t.node.database.write { db in
                guard let id = Int64(filter.id), var stored = try db.filters.find(id: id, owner: alice.id) else { return }
                stored.expiresAt = Date().addingTimeInterval(-60)
                try db.filters.save(stored)
            }
            let later = try await client.api(.get, "/api/v1/timelines/home", token: aliceToken).entity([APIStatus].self)
            #expect(later.first?.filtered == [], "an expired filter does not apply")
            #expect(try await client.api(.delete, "/api/v2/filters/statuses/\(row.id)", token: aliceToken).status == .ok)
            #expect(try await client.api(.get, "/api/v2/filters/statuses/\(row.id)", token: aliceToken).status == .notFound)
        }
    }

    @Test("thread and account contexts apply to comments and profiles; one's own posts are never filtered")
    func threadAndAccount() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, aliceToken) = try await t.user("alice")
        let (bob, bobToken) = try await t.user("bob")
        try await t.withClient { client in
            let root = try await StatusFixtures.post(client, token: aliceToken, "my tomato harvest")
            let rude = try await StatusFixtures.post(client, token: bobToken, "tomato is a fruit", extra: ["in_reply_to_id": root])
            let kind = try await StatusFixtures.post(client, token: bobToken, "lovely colours", extra: ["in_reply_to_id": root])
            _ = try await client.api(.post, "/api/v2/filters", token: aliceToken, json: [
                "title": "Tomatoes", "context": ["thread", "account"], "filter_action": "hide", "keywords_attributes": [["keyword": "tomato"]],
            ])
            let thread = try await client.api(.get, "/api/v1/statuses/\(root)/context", token: aliceToken).entity(APIContext.self)
            #expect(thread.descendants.map(\.id) == [kind], "the matching comment is hidden in the thread")
            let profile = try await client.api(.get, "/api/v1/accounts/\(bob.id)/statuses", token: aliceToken)
            #expect(!StatusFixtures.ids(profile).contains(rude))
            let own = try await client.api(.get, "/api/v1/accounts/\(try #require(Self.accountId(of: root, client)))/statuses", token: aliceToken)
            #expect(StatusFixtures.ids(own) == [root], "alice's own post is not filtered")
            #expect(try own.entity([APIStatus].self).first?.filtered == [])
        }
    }

    private static func accountId(of statusId: String, _ client: any TestClientProtocol) async throws -> String? {
        try await client.api(.get, "/api/v1/statuses/\(statusId)").entity(APIStatus.self).account.id
    }

    @Test("hide in the notifications context drops the notification")
    func notifications() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, aliceToken) = try await t.user("alice")
        let (_, bobToken) = try await t.user("bob")
        try await t.withClient { client in
            _ = try await StatusFixtures.post(client, token: bobToken, "@alice look at this giveaway")
            _ = try await StatusFixtures.post(client, token: bobToken, "@alice nice photo")
            _ = try await client.api(.post, "/api/v2/filters", token: aliceToken, json: [
                "title": "Spam", "context": ["notifications"], "filter_action": "hide", "keywords_attributes": [["keyword": "giveaway"]],
            ])
            let items = try await client.api(.get, "/api/v1/notifications", token: aliceToken).entity([APINotification].self)
            #expect(items.count == 1)
            #expect(items.first?.status?.content.contains("nice photo") == true)
            _ = alice
        }
    }
}
