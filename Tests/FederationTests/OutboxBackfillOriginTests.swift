@testable import Core
import Foundation
import GRDB
import Storage
import Testing
@testable import FedNode

/// What a followed account's outbox may put on this node: only its own `Create`s of objects on
/// its own host, at most `OutboxBackfill.maxItems` of them from at most `maxPages` pages. A
/// hostile origin (which a real node cannot play) serves the outbox.
@Suite("Outbox backfill trusts only the account's own posts", .serialized)
struct OutboxBackfillOriginTests {
    private static let everyone = ["https://www.w3.org/ns/activitystreams#Public"]

    @Test("foreign actors, foreign objects, misattributed notes and boosts are skipped; items and pages are bounded")
    func hostileOutbox() async throws {
        let (a, origin) = (try NetworkNode(name: "outbox-origin-a"), try HostileOrigin())
        defer { a.remove() }
        try await a.start(workers: false)
        try await origin.start()
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        origin.serve("/users/fan", json: origin.actor("fan"))
        let fan = "\(origin.base)/users/fan"
        let fanOnA = try await a.node.remoteAccounts.resolve(uri: fan)
        try await a.node.interactions.follow(fanOnA, by: alice)
        let followId = try #require(try a.read { try Follow.filter(Column("account_id") == alice.id).fetchOne($0)?.uri })

        let good = note(fan + "/statuses/1", by: fan)
        let firstPage: [[String: Any]] = [
            create(good, actor: fan),
            create(note("\(origin.base)/users/other/statuses/2", by: "\(origin.base)/users/other"), actor: "\(origin.base)/users/other"),
            create(note("http://victim.example/notes/3", by: fan), actor: fan),
            create(note(fan + "/statuses/4", by: "\(origin.base)/users/other"), actor: fan),
            ["id": fan + "/boosts/5", "type": "Announce", "actor": fan, "object": "http://victim.example/notes/5", "to": Self.everyone],
            ["id": fan + "/statuses/6/activity", "type": "Create", "actor": fan, "object": fan + "/statuses/6"],
        ]
        let secondPage = (100..<120).map { create(note(fan + "/statuses/\($0)", by: fan), actor: fan) }
        origin.serve("/users/fan/outbox", json: [
            "@context": "https://www.w3.org/ns/activitystreams", "id": fan + "/outbox", "type": "OrderedCollection", "totalItems": 26,
            "first": ["id": fan + "/outbox/page1", "type": "OrderedCollectionPage", "orderedItems": firstPage, "next": fan + "/outbox/page2"],
        ])
        origin.serve("/users/fan/outbox/page2", json: [
            "@context": "https://www.w3.org/ns/activitystreams", "id": fan + "/outbox/page2", "type": "OrderedCollectionPage",
            "orderedItems": secondPage, "next": fan + "/outbox/page3",
        ])
        origin.serve("/users/fan/statuses/6", json: note(fan + "/statuses/6", by: fan).merging(["@context": "https://www.w3.org/ns/activitystreams"]) { $1 })

        let accept = ["@context": "https://www.w3.org/ns/activitystreams", "id": fan + "/accepts/1", "type": "Accept", "actor": fan,
                      "object": followId] as [String: Any]
        #expect(try await origin.deliver(accept, to: a, keyId: fan + "#main-key") == 202)
        // A's workers are off: the test runs the inbox pass itself (again, should a loaded
        // machine have made the first attempt fail and wait for its retry).
        try await eventually("A processed the Accept and read fan's outbox", within: 90) {
            if try a.read({ try InboxItem.fetchCount($0) }) > 0 { await InboxWorker(node: a.node).processDue(now: Date().addingTimeInterval(3600)) }
            return await a.node.backgroundJobs.completed == 1
        }

        let stored = Set(try a.read { try Post.fetchAll($0) }.map(\.uri))
        // The first 20 items: six on the first page, fourteen on the second.
        let expected = Set([fan + "/statuses/1", fan + "/statuses/6"] + (100..<114).map { fan + "/statuses/\($0)" })
        #expect(stored == expected)
        #expect(try a.read { try HomeTimeline.page(readerId: alice.id, limit: 40, in: $0) }.count == expected.count)
        #expect(!origin.hits.contains("/users/fan/outbox/page3"), "pages past the bound are not fetched")
        await origin.stop()
        await a.stop()
    }

    private func note(_ id: String, by author: String) -> [String: Any] {
        ["id": id, "type": "Note", "attributedTo": author, "content": "<p>\(id)</p>", "to": Self.everyone]
    }

    private func create(_ note: [String: Any], actor: String) -> [String: Any] {
        ["id": "\(note["id"] ?? "")/activity", "type": "Create", "actor": actor, "object": note, "to": Self.everyone]
    }
}
