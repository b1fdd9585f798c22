@testable import Core
import Foundation
import GRDB
import Storage
import Testing
@testable import FedNode

/// Inbound `Add` and `Remove` to a remote actor's `featured` collection, from a fake origin
/// (it sends what a real node would not: other people's posts and collections as targets).
@Suite("Inbox: Add and Remove of pinned posts", .serialized)
struct FeaturedInboxTests {
    @Test("Add pins the actor's own post (its featured URL read again when unknown), Remove unpins; others' posts and collections are refused")
    func addAndRemove() async throws {
        let a = try NetworkNode(name: "a")
        defer { a.remove() }
        try await a.start(workers: false)
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let alicePost = try await a.node.posts.create(.init(text: "Sunrise"), by: alice)
        let origin = try HostileOrigin()
        try await origin.start()
        let malloryId = "\(origin.base)/users/mallory"
        let featured = "\(malloryId)/collections/featured"
        // Known first without a featured collection: the Add makes the node read the actor again.
        origin.serve("/users/mallory", json: origin.actor("mallory"))
        let mallory = try await a.node.remoteAccounts.resolve(uri: malloryId)
        func storedFeatured() throws -> String? { try a.node.database.readBlocking { try $0.pins.featuredCollection(of: mallory.id) } }
        origin.serve("/users/mallory", json: origin.actor("mallory", extra: ["featured": featured]))
        let post = try await a.node.database.write { db -> Post in
            var post = Post(uri: "\(malloryId)/statuses/1", accountId: mallory.id, local: false)
            post.content = "<p>Mallory's pier</p>"
            try PostWriter.insert(post, media: [], hashtags: [], mentions: [], in: db)
            return post
        }
        func send(_ type: String, _ n: Int, object: String, target: String) async throws -> Int {
            let activity: [String: Any] = ["@context": "https://www.w3.org/ns/activitystreams", "id": "\(malloryId)#\(type)/\(n)",
                                           "type": type, "actor": malloryId, "object": object, "target": target]
            let status = try await origin.deliver(activity, to: a, keyId: malloryId + "#main-key")
            await InboxWorker(node: a.node).processDue()
            return status
        }
        func pins() throws -> [Int64] { try a.read { try Pin.fetchAll($0).map(\.postId) } }

        #expect(try await send("Add", 1, object: post.uri, target: "\(malloryId)/collections/tags") == 202)
        #expect(try pins().isEmpty, "another collection of the actor's is not the featured one")
        #expect(try await send("Add", 2, object: alicePost.uri, target: featured) == 202)
        #expect(try await send("Add", 3, object: post.uri, target: a.node.urls.featured("alice")) == 202)
        #expect(try pins().isEmpty, "someone else's post or collection is refused")

        #expect(try await send("Add", 4, object: post.uri, target: featured) == 202)
        #expect(try pins() == [post.id])
        #expect(try storedFeatured() == featured)
        let listed = try await a.node.httpClient.execute(HTTPClientRequest(
            url: "http://\(a.domain)/api/v1/accounts/\(mallory.id)/statuses?pinned=true"))
        let ids = (try JSONSerialization.jsonObject(with: Data(listed.body)) as? [[String: Any]])?.compactMap { $0["id"] as? String }
        #expect(ids == [String(post.id)])

        #expect(try await send("Remove", 5, object: post.uri, target: featured) == 202)
        #expect(try pins().isEmpty)
        await origin.stop()
        await a.stop()
    }
}
