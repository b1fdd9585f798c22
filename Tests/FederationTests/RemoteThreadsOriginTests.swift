@testable import Core
import Foundation
import GRDB
import Storage
import Testing
@testable import FedNode

/// What a hostile origin cannot make the node store when it fetches posts by URL, walks up a
/// thread or reads a post's replies: posts attributed to another host, endless chains, and
/// "replies" that answer something else.
@Suite("Remote posts and threads from hostile origins", .serialized)
struct RemoteThreadsOriginTests {
    private static let publicAudience = ["https://www.w3.org/ns/activitystreams#Public"]

    private static func note(_ id: String, by author: String, inReplyTo: String? = nil, extra: [String: Any] = [:]) -> [String: Any] {
        var note: [String: Any] = ["id": id, "type": "Note", "attributedTo": author, "content": "<p>\(id)</p>", "to": publicAudience]
        if let inReplyTo { note["inReplyTo"] = inReplyTo }
        note.merge(extra) { $1 }
        return note
    }

    @Test("a post attributed to an actor on another host is refused, and nothing is stored")
    func foreignAuthorRefused() async throws {
        let (a, evil) = (try NetworkNode(name: "foreign-a"), try HostileOrigin())
        defer { a.remove() }
        try await a.start(workers: false)
        try await evil.start()
        let carol = try await a.node.accounts.create(username: "carol", email: "carol@a.test", password: "carol password")
        let victim = "http://\(a.domain)/users/carol"
        evil.serve("/notes/1", json: Self.note("\(evil.base)/notes/1", by: victim))

        let found = try await SearchService(node: a.node).posts(.init(text: "\(evil.base)/notes/1", resolve: true), viewer: carol)
        #expect(found.isEmpty)
        await #expect(throws: NodeError.self) { try await RemotePostResolver(node: a.node).resolve("\(evil.base)/notes/1") }
        #expect(try a.read { try Post.fetchCount($0) } == 0)
        await evil.stop()
        await a.stop()
    }

    @Test("walking up an endless thread stops after the bound")
    func ancestorChainIsBounded() async throws {
        let (a, evil) = (try NetworkNode(name: "chain-a"), try HostileOrigin())
        defer { a.remove() }
        try await a.start(workers: false)
        try await evil.start()
        evil.serve("/users/mallory", json: evil.actor("mallory"))
        let mallory = "\(evil.base)/users/mallory"
        for index in 0..<30 {
            evil.serve("/notes/\(index)", json: Self.note("\(evil.base)/notes/\(index)", by: mallory, inReplyTo: "\(evil.base)/notes/\(index + 1)"))
        }

        let walked = await ThreadCompletion.fetchAncestors(from: "\(evil.base)/notes/0", node: a.node)
        #expect(walked == RemotePostResolver.maxAncestors)
        #expect(try a.read { try Post.fetchCount($0) } == RemotePostResolver.maxAncestors)
        #expect(!evil.hits.contains("/notes/\(RemotePostResolver.maxAncestors)"))
        await evil.stop()
        await a.stop()
    }

    @Test("a replies collection item that answers another post is not stored as a comment")
    func repliesMustAnswerThePost() async throws {
        let (a, evil) = (try NetworkNode(name: "replies-a"), try HostileOrigin())
        defer { a.remove() }
        try await a.start(workers: false)
        try await evil.start()
        evil.serve("/users/mallory", json: evil.actor("mallory"))
        let mallory = "\(evil.base)/users/mallory"
        let post = "\(evil.base)/notes/post"
        evil.serve("/notes/post", json: Self.note(post, by: mallory, extra: [
            "replies": ["id": "\(post)/replies", "type": "Collection", "totalItems": 2,
                        "first": ["type": "CollectionPage", "partOf": "\(post)/replies",
                                  "items": ["\(evil.base)/notes/reply", "\(evil.base)/notes/unrelated"]]],
            "likes": ["id": "\(post)/likes", "type": "Collection", "totalItems": 7],
        ]))
        evil.serve("/notes/reply", json: Self.note("\(evil.base)/notes/reply", by: mallory, inReplyTo: post))
        evil.serve("/notes/unrelated", json: Self.note("\(evil.base)/notes/unrelated", by: mallory))

        let stored = try await RemotePostResolver(node: a.node).resolve(post, completeThread: false)
        #expect(try await RemotePostRefresh(node: a.node).run(stored) == 1)
        let uris = Set(try a.read { try Post.fetchAll($0) }.map(\.uri))
        #expect(uris == [post, "\(evil.base)/notes/reply"])
        let counts = try a.node.database.readBlocking { try $0.posts.counts(of: stored.id) }
        #expect(counts.favourites == 7 && counts.replies == 2, "the origin's figures are shown, never less than known")
        await evil.stop()
        await a.stop()
    }
}
