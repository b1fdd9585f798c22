@testable import Core
import Foundation
import Hummingbird
import HummingbirdTesting
import Signatures
import Storage
import Testing
@testable import FedNode

@Suite("Actor documents and collections")
struct ActorDocumentTests {
    static let activityAccepts = [
        "application/activity+json",
        "application/ld+json; profile=\"https://www.w3.org/ns/activitystreams\"",
        "application/ld+json",
        "text/html;q=0.5, application/activity+json",
    ]

    @Test("the Person carries everything other servers read", arguments: activityAccepts)
    func person(accept: String) async throws {
        let test = try TestNode.make()
        defer { test.remove() }
        var alice = try await test.node.accounts.create(username: "alice", email: "alice@example.com", password: "correct horse", displayName: "Alice")
        alice.firstName = "Alice"
        alice.lastName = "Liddell"
        alice.note = "<p>Photos of rabbits</p>"
        alice.website = "https://alice.example"
        alice.fields = [ProfileField(name: "GitHub", value: "https://github.com/alice")]
        alice.locked = true
        let updated = alice
        try await test.node.database.writeSQL { db in try updated.update(db) }
        try await test.withClient { client in
            try await client.execute(uri: "/users/alice", method: .get, headers: [.accept: accept]) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("application/activity+json") == true)
                let json = try #require(response.json)
                let context = try #require(json["@context"] as? [Any])
                #expect(context.first as? String == "https://www.w3.org/ns/activitystreams")
                #expect(context.contains { $0 as? String == "https://w3id.org/security/v1" })
                #expect(json["type"] as? String == "Person")
                #expect(json["id"] as? String == "https://social.test/users/alice" || json["id"] as? String == "http://social.test/users/alice")
                let id = try #require(json["id"] as? String)
                #expect(json["preferredUsername"] as? String == "alice")
                #expect(json["name"] as? String == "Alice")
                #expect(json["summary"] as? String == "<p>Photos of rabbits</p>")
                #expect(json["inbox"] as? String == id + "/inbox")
                #expect(json["outbox"] as? String == id + "/outbox")
                #expect(json["followers"] as? String == id + "/followers")
                #expect(json["following"] as? String == id + "/following")
                #expect(json["manuallyApprovesFollowers"] as? Bool == true)
                #expect(json["discoverable"] as? Bool == true)
                #expect(json["published"] is String)
                #expect((json["endpoints"] as? [String: Any])?["sharedInbox"] as? String == test.node.urls.sharedInbox)
                let key = try #require(json["publicKey"] as? [String: Any])
                #expect(key["id"] as? String == id + "#main-key")
                #expect(key["owner"] as? String == id)
                let pem = try #require(key["publicKeyPem"] as? String)
                _ = try RSAPublicKey(pem: pem)
                let attachment = try #require(json["attachment"] as? [[String: Any]])
                #expect(attachment.map { $0["type"] as? String } == ["PropertyValue", "PropertyValue"])
                #expect(attachment.map { $0["name"] as? String } == ["Website", "GitHub"])
                #expect((attachment[1]["value"] as? String)?.contains("href=\"https://github.com/alice\"") == true)
                #expect(json["vcard:given-name"] as? String == "Alice")
                #expect(json["vcard:family-name"] as? String == "Liddell")
            }
        }
    }

    @Test("browsers get an HTML profile; unsupported types get 406; unknown users 404")
    func negotiation() async throws {
        let test = try TestNode.make()
        defer { test.remove() }
        _ = try await test.node.accounts.create(username: "alice", email: "alice@example.com", password: "correct horse", displayName: "Alice <script>")
        try await test.withClient { client in
            for (path, accept) in [("/users/alice", "text/html,application/xhtml+xml,*/*;q=0.8"), ("/@alice", "*/*"), ("/users/alice", "")] {
                try await client.execute(uri: path, method: .get, headers: accept.isEmpty ? [:] : [.accept: accept]) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
                    #expect(response.text.contains("@alice@social.test"))
                    #expect(response.text.contains("Alice &lt;script&gt;"))
                    #expect(!response.text.contains("<script>"))
                }
            }
            try await client.execute(uri: "/users/alice", method: .get, headers: [.accept: "image/png"]) { response in
                #expect(response.status == .notAcceptable)
                #expect(response.json?["error"] is String)
            }
            try await client.execute(uri: "/users/nobody", method: .get, headers: [.accept: "application/activity+json"]) { response in
                #expect(response.status == .notFound)
                #expect(response.json?["error"] is String)
            }
        }
    }

    /// Local alice and bob, bob following alice.
    static func aliceFollowedByBob(_ test: TestNode) async throws -> (alice: Account, bob: Account) {
        let alice = try await test.node.accounts.create(username: "alice", email: "alice@example.com", password: "correct horse")
        let bob = try await test.node.accounts.create(username: "bob", email: "bob@example.com", password: "correct horse")
        try await test.node.database.writeSQL { db in
            try Follow(accountId: bob.id, targetAccountId: alice.id, uri: nil, state: .accepted).insert(db)
        }
        return (alice, bob)
    }

    @Test("outbox, followers and following are paged OrderedCollections")
    func collections() async throws {
        let test = try TestNode.make()
        defer { test.remove() }
        let (alice, bob) = try await Self.aliceFollowedByBob(test)
        try await test.withClient { client in
            for name in ["outbox", "followers", "following"] {
                try await client.execute(uri: "/users/alice/\(name)", method: .get, headers: [.accept: "application/activity+json"]) { response in
                    #expect(response.status == .ok)
                    let json = try #require(response.json)
                    #expect(json["type"] as? String == "OrderedCollection")
                    #expect(json["id"] as? String == alice.uri + "/\(name)")
                    #expect(json["totalItems"] as? Int == (name == "followers" ? 1 : 0))
                    let first = try #require(json["first"] as? String)
                    let path = String(first.dropFirst(test.node.urls.base.count))
                    try await client.execute(uri: path, method: .get) { page in
                        let pageJSON = try #require(page.json)
                        #expect(pageJSON["type"] as? String == "OrderedCollectionPage")
                        #expect(pageJSON["partOf"] as? String == alice.uri + "/\(name)")
                        let items = pageJSON["orderedItems"] as? [String] ?? []
                        #expect(items == (name == "followers" ? [bob.uri] : []))
                    }
                }
            }
        }
    }

    @Test("hostile page numbers and ids in collection queries answer, never crash",
          arguments: ["page=9223372036854775807", "page=-9223372036854775808", "page=9223372036854775806",
                      "page=99999999999999999999999", "page=0", "page=abc", "page=true&max_id=-1",
                      "page=true&max_id=9223372036854775807", "page=true&max_id=99999999999999999999"])
    func hostilePages(query: String) async throws {
        let test = try TestNode.make()
        defer { test.remove() }
        let (alice, bob) = try await Self.aliceFollowedByBob(test)
        try await test.node.database.writeSQL { db in
            try Follow(accountId: alice.id, targetAccountId: bob.id, uri: nil, state: .accepted).insert(db)
        }
        try await test.withClient { client in
            for name in ["outbox", "followers", "following"] {
                try await client.execute(uri: "/users/alice/\(name)?\(query)", method: .get, headers: [.accept: "application/activity+json"]) { response in
                    #expect(response.status == .ok, "\(name)?\(query)")
                    let json = try #require(response.json)
                    #expect(json["type"] as? String == "OrderedCollectionPage")
                    let items = json["orderedItems"] as? [String] ?? []
                    // Page 1 (also what unusable numbers and numbers below 1 mean) lists the one relation;
                    // pages past the end are empty, digits past 64 bits included (`IntParameter`).
                    let pageOne = query.hasPrefix("page=0") || query.hasPrefix("page=-") || query.hasPrefix("page=abc")
                    if name != "outbox", pageOne { #expect(items.count == 1) }
                    if name != "outbox", query.hasPrefix("page=922") || query.hasPrefix("page=999") {
                        #expect(items.isEmpty && json["next"] == nil)
                    }
                }
            }
        }
    }

    @Test("the outbox shows posts as edited, not as first sent")
    func outboxShowsEdits() async throws {
        let test = try TestNode.make()
        defer { test.remove() }
        let alice = try await test.node.accounts.create(username: "alice", email: "alice@example.com", password: "correct horse")
        let post = try await test.node.posts.create(.init(text: "First caption"), by: alice)
        _ = try await test.node.posts.edit(post.id, text: "Second caption #edited", by: alice)
        try await test.withClient { client in
            try await client.execute(uri: "/users/alice/outbox?page=true", method: .get, headers: [.accept: "application/activity+json"]) { response in
                let items = try #require(response.json?["orderedItems"] as? [[String: Any]])
                #expect(items.count == 1)
                let note = try #require(items.first?["object"] as? [String: Any])
                #expect(items.first?["type"] as? String == "Create")
                #expect((note["content"] as? String)?.contains("Second caption") == true)
                #expect(note["updated"] is String)
            }
        }
    }
}
