@testable import Core
import Foundation
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// Bookmarks over HTTP: bookmark, unbookmark, the list and `bookmarked` on statuses.
@Suite("Client API: bookmarks")
struct BookmarksTests {
    @Test("bookmark answers the status with bookmarked, the list is newest bookmark first with Link, unbookmark removes it")
    func bookmarkAndList() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, aliceToken) = try await t.user("alice")
        let (_, bobToken) = try await t.user("bob")
        try await t.withLiveClient { client async throws in
            let first = try await StatusFixtures.post(client, token: aliceToken, "Harbour at dawn")
            let second = try await StatusFixtures.post(client, token: aliceToken, "Harbour at dusk")
            let marked = try await client.api(.post, "/api/v1/statuses/\(second)/bookmark", token: bobToken)
            #expect(marked.status == .ok)
            #expect(marked.json?["bookmarked"] as? Bool == true)
            #expect(try await client.api(.post, "/api/v1/statuses/\(first)/bookmark", token: bobToken).json?["bookmarked"] as? Bool == true)
            // Twice is once.
            #expect(try await client.api(.post, "/api/v1/statuses/\(first)/bookmark", token: bobToken).status == .ok)

            // Newest bookmark first (first was bookmarked after second), paged by bookmark.
            let list = try await client.api(.get, "/api/v1/bookmarks", token: bobToken)
            #expect(StatusFixtures.ids(list) == [first, second])
            #expect(list.jsonArray?.allSatisfy { $0["bookmarked"] as? Bool == true } == true)
            let page = try await client.api(.get, "/api/v1/bookmarks?limit=1", token: bobToken)
            #expect(StatusFixtures.ids(page) == [first])
            let link = try #require(page.headers[.link])
            let next = try #require(link.split(separator: ",").first { $0.contains("rel=\"next\"") })
            let maxId = try #require(next.split(separator: "max_id=").last?.split(separator: ">").first)
            let older = try await client.api(.get, "/api/v1/bookmarks?limit=1&max_id=\(maxId)", token: bobToken)
            #expect(StatusFixtures.ids(older) == [second])

            // Private to bob: alice sees no bookmark on her own post, and has none.
            let seenByAlice = try await client.api(.get, "/api/v1/statuses/\(first)", token: aliceToken)
            #expect(seenByAlice.json?["bookmarked"] as? Bool == false)
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/bookmarks", token: aliceToken)).isEmpty)
            // Rendered on timelines too.
            let publicTimeline = try await client.api(.get, "/api/v1/timelines/public", token: bobToken)
            let flags = (publicTimeline.jsonArray ?? []).map { $0["bookmarked"] as? Bool }
            #expect(flags == [true, true])

            let unmarked = try await client.api(.post, "/api/v1/statuses/\(first)/unbookmark", token: bobToken)
            #expect(unmarked.status == .ok)
            #expect(unmarked.json?["bookmarked"] as? Bool == false)
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/bookmarks", token: bobToken)) == [second])
        }
    }

    @Test("bookmarking needs write:bookmarks, a visible post; listing needs read:bookmarks; a boost stands for its post")
    func scopesAndVisibility() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (_, aliceToken) = try await t.user("alice")
        let (_, bobToken) = try await t.user("bob")
        let (_, readOnly) = try await t.user("carol", scopes: "read")
        let (_, favouritesOnly) = try await t.user("dan", scopes: "read:favourites write:favourites")
        try await t.withLiveClient { client async throws in
            let post = try await StatusFixtures.post(client, token: aliceToken, "Only for followers", visibility: "private")
            #expect(try await client.api(.post, "/api/v1/statuses/\(post)/bookmark", token: bobToken).status == .notFound)
            #expect(try await client.api(.post, "/api/v1/statuses/\(post)/bookmark").status == .unauthorized)
            #expect(try await client.api(.post, "/api/v1/statuses/\(post)/bookmark", token: readOnly).status == .forbidden)
            #expect(try await client.api(.get, "/api/v1/bookmarks", token: favouritesOnly).status == .forbidden)
            #expect(try await client.api(.get, "/api/v1/bookmarks", token: readOnly).status == .ok)
            #expect(try await client.api(.post, "/api/v1/statuses/abc/bookmark", token: bobToken).json?["error"] as? String == "Record not found")

            let open = try await StatusFixtures.post(client, token: aliceToken, "Boats")
            let boost = try await client.api(.post, "/api/v1/statuses/\(open)/reblog", token: bobToken)
            let boostId = try #require(boost.json?["id"] as? String)
            let marked = try await client.api(.post, "/api/v1/statuses/\(boostId)/bookmark", token: bobToken)
            #expect(marked.json?["id"] as? String == open)
            #expect(StatusFixtures.ids(try await client.api(.get, "/api/v1/bookmarks", token: bobToken)) == [open])
        }
    }
}
