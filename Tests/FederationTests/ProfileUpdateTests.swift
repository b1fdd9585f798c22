@testable import Core
import Foundation
import GRDB
import Storage
import Testing
@testable import FedNode

/// A profile edit on one node reaches the copies other nodes keep of the account.
@Suite("Profile updates across nodes", .serialized)
struct ProfileUpdateTests {
    @Test("alice@A edits her name, bio, links and avatar, then removes the avatar; bob@B, a follower, sees each change")
    func profileEditReachesFollowers() async throws {
        let (a, b) = (try NetworkNode(name: "a"), try NetworkNode(name: "b"))
        defer { [a, b].forEach { $0.remove() } }
        for node in [a, b] { try await node.start() }
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password", displayName: "Alice")
        let bob = try await b.node.accounts.create(username: "bob", email: "bob@b.test", password: "bob password")

        let aliceOnB = try await b.node.remoteAccounts.resolve(username: "alice", domain: a.domain)
        #expect(aliceOnB.displayName == "Alice")
        try await b.node.interactions.follow(aliceOnB, by: bob)
        try await eventually("A records bob as alice's follower") {
            try a.read { try Account.followersCount(of: alice.id, in: $0) } == 1
        }

        let avatar = try Data(contentsOf: PythonInterop.root.appendingPathComponent("interop/fixtures/pier.jpg"))
        var changes = ProfileChanges()
        changes.displayName = "Alice in Wonderland"
        changes.note = "Chasing rabbits\nwith a camera"
        changes.fields = [ProfileField(name: "Site", value: "https://alice.example")]
        changes.avatar = avatar
        let saved = try await a.node.profiles.update(alice, with: changes)
        #expect(saved.note == "<p>Chasing rabbits<br>with a camera</p>")

        try await eventually("B shows alice's new display name") {
            try b.read { try Account.fetchOne($0, key: aliceOnB.id)?.displayName } == "Alice in Wonderland"
        }
        let copy = try #require(try b.read { try Account.fetchOne($0, key: aliceOnB.id) })
        #expect(copy.note.contains("Chasing rabbits"))
        #expect(copy.avatarUrl == "http://\(a.domain)/media/\(try #require(saved.avatarUrl))")
        #expect(copy.fields.map(\.name) == ["Site"])
        #expect(copy.fields.first?.value.contains("href=\"https://alice.example\"") == true)
        // B serves the avatar from its own cache: the same bytes A stored (400×400 JPEG).
        let cached = try await b.node.httpClient.execute(HTTPClientRequest(url: "http://\(b.domain)/media/remote/avatar/\(copy.id)"))
        #expect(cached.status == 200)
        #expect(cached.headers.first { $0.name.lowercased() == "content-type" }?.value == "image/jpeg")
        let original = try Data(contentsOf: URL(fileURLWithPath: a.dataDirectory + "/media/" + (try #require(saved.avatarUrl))))
        #expect(Data(cached.body) == original)
        #expect(await b.node.remoteMedia.count == 1)
        // The Update went out once, to B's shared inbox.
        let sent = try a.read { try OutboxActivity.filter(Column("type") == "Update").fetchCount($0) }
        #expect(sent == 1)

        // Removing the avatar reaches B too: its copy has none, and its cache no longer serves it.
        var removal = ProfileChanges()
        removal.removesAvatar = true
        try await a.node.profiles.update(saved, with: removal)
        try await eventually("B's copy of alice has no avatar") {
            try b.read { try Account.fetchOne($0, key: aliceOnB.id)?.avatarUrl } == nil
        }
        let gone = try await b.node.httpClient.execute(HTTPClientRequest(url: "http://\(b.domain)/media/remote/avatar/\(copy.id)"))
        #expect(gone.status == 404)
        for node in [a, b] { await node.stop() }
    }
}
