@testable import Core
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// `GET /api/v1/trends/tags`, `/statuses` and `/links`, over loopback HTTP.
@Suite("Client API: trends")
struct TrendsTests {
    @Test("tags used by the most people this week come first, with a 7-day history")
    func trendingTags() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, a) = try await t.user("alice")
        let (_, b) = try await t.user("bob")
        try await buildApplication(node: t.node).test(.live) { client async throws in
            _ = try await StatusFixtures.post(client, token: a, "#harbour at dusk")
            _ = try await StatusFixtures.post(client, token: b, "#Harbour again")
            _ = try await StatusFixtures.post(client, token: a, "#solo #solo twice")
            _ = try await StatusFixtures.post(client, token: b, "#hidden", visibility: "unlisted")
            _ = try await StatusFixtures.post(client, token: b, "#nsfw", extra: ["sensitive": true])
            let response = try await client.api(.get, "/api/v1/trends/tags")
            #expect(response.status == .ok)
            let tags = try response.entity([APITag].self)
            #expect(tags.map(\.name) == ["harbour", "solo"])
            let today = tags.first?.history?.first
            #expect(tags.first?.history?.count == 7)
            #expect(today?.uses == "2" && today?.accounts == "2")
            #expect(tags.first?.following == nil)
            let second = try await client.api(.get, "/api/v1/trends/tags?offset=1&limit=1")
            #expect(try second.entity([APITag].self).map(\.name) == ["solo"])
            let deprecated = try await client.api(.get, "/api/v1/trends?limit=50").entity([APITag].self)
            #expect(deprecated.map(\.name) == ["harbour", "solo"])
        }
    }

    @Test("statuses with engagement rank above those without; private, sensitive and blocked ones never trend")
    func trendingStatuses() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, a) = try await t.user("alice")
        let (_, b) = try await t.user("bob")
        let (_, c) = try await t.user("carol")
        try await buildApplication(node: t.node).test(.live) { client async throws in
            let liked = try await StatusFixtures.post(client, token: a, "liked once")
            let popular = try await StatusFixtures.post(client, token: b, "liked twice and boosted")
            let ignored = try await StatusFixtures.post(client, token: c, "nobody cares")
            let privatePost = try await StatusFixtures.post(client, token: a, "followers only", visibility: "private")
            let warned = try await StatusFixtures.post(client, token: a, "with a warning", extra: ["spoiler_text": "cw"])
            for (id, token) in [(liked, b), (popular, a), (popular, c), (privatePost, a), (warned, b)] {
                #expect(try await client.api(.post, "/api/v1/statuses/\(id)/favourite", token: token).status == .ok)
            }
            #expect(try await client.api(.post, "/api/v1/statuses/\(popular)/reblog", token: c).status == .ok)
            let ids = StatusFixtures.ids(try await client.api(.get, "/api/v1/trends/statuses"))
            #expect(ids == [popular, liked])
            #expect(!ids.contains(ignored))
            let paged = try await client.api(.get, "/api/v1/trends/statuses?limit=1")
            #expect(StatusFixtures.ids(paged) == [popular])
            #expect(paged.headers[.link]?.contains("offset=1") == true)
            #expect(try await client.api(.post, "/api/v1/accounts/\(alice.id)/block", token: c).status == .ok)
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/trends/statuses", token: c)) == [popular])
        }
    }

    @Test("links answer an empty list; bad paging values are clamped, bad tokens refused")
    func linksAndBadInput() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        try await buildApplication(node: t.node).test(.live) { client async throws in
            let links = try await client.api(.get, "/api/v1/trends/links?limit=5")
            #expect(links.status == .ok && links.jsonArray?.isEmpty == true)
            for path in ["/api/v1/trends/tags", "/api/v1/trends/statuses", "/api/v1/trends/links"] {
                #expect(try await client.api(.get, path + "?offset=abc&limit=-9").status == .ok)
                #expect(try await client.api(.get, path, token: "invalid").status == .unauthorized)
            }
        }
    }
}
