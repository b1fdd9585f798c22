@testable import Core
import Foundation
import GRDB
import Storage
import Testing
@testable import FedNode

/// Posts this node was never sent: a post looked up by its URL, the parents of a reply, and the
/// comments listed by a post's origin, each fetched from its own origin over signed HTTP.
@Suite("Remote posts and threads across nodes", .serialized)
struct RemoteThreadsTests {
    @Test("carol@B pastes alice@A's post URL into search with resolve: B fetches it, carol likes it, A counts the like")
    func lookupByURLThenLike() async throws {
        let (a, b) = (try NetworkNode(name: "lookup-a"), try NetworkNode(name: "lookup-b"))
        defer { [a, b].forEach { $0.remove() } }
        for node in [a, b] { try await node.start() }
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let carol = try await b.node.accounts.create(username: "carol", email: "carol@b.test", password: "carol password")
        let post = try await a.node.posts.create(.init(text: "Fog over the bay #fog"), by: alice)
        let webURL = post.url ?? post.uri

        let search = SearchService(node: b.node)
        #expect(try await search.posts(.init(text: webURL), viewer: carol).isEmpty, "without resolve nothing is fetched")
        let found = try await search.posts(.init(text: webURL, resolve: true), viewer: carol)
        let copy = try #require(found.first)
        #expect(found.count == 1 && copy.uri == post.uri && copy.content.contains("Fog over the bay"))
        #expect(try await search.posts(.init(text: webURL), viewer: carol).map(\.id) == [copy.id], "known now, without resolving")
        // Anonymous callers never make the node fetch.
        #expect(try await search.posts(.init(text: "http://\(a.domain)/users/alice/statuses/1", resolve: true), viewer: nil).isEmpty)

        try await b.node.interactions.like(copy.id, by: carol)
        try await eventually("A records carol's like") {
            try a.read { try Like.filter(Column("post_id") == post.id).fetchCount($0) } == 1
        }
        for node in [a, b] { await node.stop() }
    }

    @Test("a profile URL and an acct: handle resolve to the account")
    func lookupAccounts() async throws {
        let (a, b) = (try NetworkNode(name: "acct-a"), try NetworkNode(name: "acct-b"))
        defer { [a, b].forEach { $0.remove() } }
        for node in [a, b] { try await node.start() }
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let carol = try await b.node.accounts.create(username: "carol", email: "carol@b.test", password: "carol password")
        let search = SearchService(node: b.node)
        let byHandle = try await search.accounts(.init(text: "acct:alice@\(a.domain)", resolve: true), viewer: carol)
        #expect(byHandle.map(\.uri) == [alice.uri])
        let profileURL = "http://\(a.domain)/@alice"
        let byURL = try await search.accounts(.init(text: profileURL, resolve: true), viewer: carol)
        #expect(byURL.map(\.uri) == [alice.uri])
        for node in [a, b] { await node.stop() }
    }

    @Test("carol@C follows bob@B, who replies to alice@A's reply: C fetches both parents and links the thread")
    func replyBringsParentChain() async throws {
        let (a, b, c) = (try NetworkNode(name: "thread-a"), try NetworkNode(name: "thread-b"), try NetworkNode(name: "thread-c"))
        defer { [a, b, c].forEach { $0.remove() } }
        for node in [a, b, c] { try await node.start() }
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let bob = try await b.node.accounts.create(username: "bob", email: "bob@b.test", password: "bob password")
        let carol = try await c.node.accounts.create(username: "carol", email: "carol@c.test", password: "carol password")
        let bobOnC = try await c.node.remoteAccounts.resolve(username: "bob", domain: b.domain)
        try await c.node.interactions.follow(bobOnC, by: carol)
        try await eventually("B accepted carol's follow") { try b.read { try Account.followersCount(of: bob.id, in: $0) } == 1 }

        let root = try await a.node.posts.create(.init(text: "Which lens for the harbour?"), by: alice)
        let middle = try await a.node.posts.create(.init(text: "Thinking 35mm", inReplyToId: root.id), by: alice)
        // bob finds alice's reply by URL and answers it; B delivers the answer to carol on C.
        let middleOnB = try #require(try await SearchService(node: b.node).posts(.init(text: middle.uri, resolve: true), viewer: bob).first)
        let answer = try await b.node.posts.create(.init(text: "50mm, always", inReplyToId: middleOnB.id), by: bob)

        try await eventually("C stored bob's answer and both of its ancestors, linked") {
            let posts = try c.read { try Post.filter([root.uri, middle.uri, answer.uri].contains(Column("uri"))).fetchAll($0) }
            let byURI = Dictionary(uniqueKeysWithValues: posts.map { ($0.uri, $0) })
            guard let r = byURI[root.uri], let m = byURI[middle.uri], let x = byURI[answer.uri] else { return false }
            return m.inReplyToId == r.id && x.inReplyToId == m.id
        }
        // The thread reads as a person expects: both ancestors above bob's answer, and the
        // root's reply counter includes the reply that arrived before it.
        let onC = try #require(try c.read { try Post.filter(Column("uri") == answer.uri).fetchOne($0) })
        let ancestors = try c.node.database.readBlocking { db in try StatusThread.ancestors(of: onC, viewer: carol.id, in: db) }
        #expect(ancestors.map(\.uri) == [root.uri, middle.uri])
        let rootOnC = try #require(try c.read { try Post.filter(Column("uri") == root.uri).fetchOne($0) })
        #expect(try c.node.database.readBlocking { try $0.posts.counts(of: rootOnC.id) }.replies == 1)
        for node in [a, b, c] { await node.stop() }
    }

    @Test("opening alice@A's post on C reads the comments and likes A knows, from servers C does not follow")
    func openingReadsRepliesAndCounts() async throws {
        let (a, b, c) = (try NetworkNode(name: "open-a"), try NetworkNode(name: "open-b"), try NetworkNode(name: "open-c"))
        defer { [a, b, c].forEach { $0.remove() } }
        for node in [a, b, c] { try await node.start() }
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let dave = try await a.node.accounts.create(username: "dave", email: "dave@a.test", password: "dave password")
        let bob = try await b.node.accounts.create(username: "bob", email: "bob@b.test", password: "bob password")
        let carol = try await c.node.accounts.create(username: "carol", email: "carol@c.test", password: "carol password")
        let post = try await a.node.posts.create(.init(text: "Market day"), by: alice)
        try await a.node.interactions.like(post.id, by: dave)
        let postOnB = try #require(try await SearchService(node: b.node).posts(.init(text: post.uri, resolve: true), viewer: bob).first)
        let comment = try await b.node.posts.create(.init(text: "Love the colours", inReplyToId: postOnB.id), by: bob)
        try await eventually("A stored bob's comment") {
            try a.read { try Post.filter(Column("uri") == comment.uri).fetchCount($0) } == 1
        }

        let postOnC = try #require(try await SearchService(node: c.node).posts(.init(text: post.uri, resolve: true), viewer: carol).first)
        #expect(try c.read { try Post.filter(Column("uri") == comment.uri).fetchCount($0) } == 0, "C never received bob's comment")
        #expect(try await RemotePostRefresh(node: c.node).run(postOnC) == 1)
        let commentOnC = try #require(try c.read { try Post.filter(Column("uri") == comment.uri).fetchOne($0) })
        #expect(commentOnC.inReplyToId == postOnC.id)
        let counts = try c.node.database.readBlocking { try $0.posts.counts(of: postOnC.id) }
        #expect(counts.favourites == 1, "dave's like on A is counted on C, which holds no like row for it")
        #expect(counts.replies == 1)
        #expect(try c.read { try Like.filter(Column("post_id") == postOnC.id).fetchCount($0) } == 0)
        for node in [a, b, c] { await node.stop() }
    }
}
