@testable import Core
import Foundation
import GRDB
import Storage
import Testing
@testable import FedNode

/// Photos are the product: a post with several photos made on one node shows the same photos,
/// in order, with alt text and blurhash, on another node, which serves them from its cache.
@Suite("Photos across nodes", .serialized)
struct PhotoFederationTests {
    @Test("three photos arrive in order with alt text, size and blurhash, and are served by the receiving node")
    func multiPhotoPost() async throws {
        let (a, b) = (try NetworkNode(name: "photos-a"), try NetworkNode(name: "photos-b"))
        defer { [a, b].forEach { $0.remove() } }
        for node in [a, b] { try await node.start() }
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let bob = try await b.node.accounts.create(username: "bob", email: "bob@b.test", password: "bob password")
        try await b.node.interactions.follow(try await b.node.remoteAccounts.resolve(username: "alice", domain: a.domain), by: bob)
        try await eventually("bob follows alice") { try a.read { try Account.followersCount(of: alice.id, in: $0) } == 1 }

        let fixture = try Data(contentsOf: PythonInterop.root.appendingPathComponent("interop/fixtures/pier.jpg"))
        var uploads: [MediaAttachment] = []
        for (index, alt) in ["The pier", "The boats", "The lighthouse"].enumerated() {
            // Different focal points give different thumbnails; the display image is the same photo.
            let stored = try await a.node.uploadStore.store(fixture, focus: .init(x: Double(index) / 2 - 0.5, y: 0))
            var media = MediaAttachment(accountId: alice.id)
            (media.filePath, media.thumbnailPath, media.contentType) = (stored.path, stored.thumbnailPath, stored.contentType)
            (media.width, media.height, media.blurhash, media.description) = (stored.width, stored.height, stored.blurhash, alt)
            uploads.append(try await a.node.database.writeSQL { [media] db in try media.inserted(db) })
        }
        let post = try await a.node.posts.create(.init(text: "Harbour walk #photos", mediaIds: uploads.reversed().map(\.id)), by: alice)

        try await eventually("B has alice's post") { try b.read { try Post.filter(Column("uri") == post.uri).fetchCount($0) } == 1 }
        let copy = try #require(try b.read { try Post.filter(Column("uri") == post.uri).fetchOne($0) })
        let received = try b.read { try MediaAttachment.filter(Column("post_id") == copy.id).order(Column("position")).fetchAll($0) }
        #expect(received.map(\.description) == ["The lighthouse", "The boats", "The pier"])
        #expect(received.map(\.blurhash) == uploads.reversed().map(\.blurhash))
        #expect(received.allSatisfy { $0.width == 1200 && $0.height == 800 && $0.remoteUrl?.hasPrefix("http://\(a.domain)/media/") == true })

        // Through B's client API the photos come from B's cache, with the origin kept as remote_url.
        let entities = try b.read { db in try EntityRenderer(node: b.node, viewer: bob, db: Transaction(db)).status(copy).mediaAttachments }
        #expect(entities.map(\.description) == ["The lighthouse", "The boats", "The pier"])
        let first = try #require(entities.first)
        #expect(first.url?.hasPrefix("http://\(b.domain)/media/remote/attachment/") == true)
        #expect(first.remoteUrl == received.first?.remoteUrl)
        let served = try await b.node.httpClient.execute(HTTPClientRequest(url: try #require(first.url)))
        #expect(served.status == 200)
        let original = try Data(contentsOf: URL(fileURLWithPath: a.dataDirectory + "/media/" + (uploads.last?.filePath ?? "")))
        #expect(Data(served.body) == original)
    }
}
