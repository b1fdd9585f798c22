@testable import Core
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import FedNode

/// What FedNode sends has the fields and formats Mastodon sends, because other servers are
/// tested against Mastodon's output and some parse it strictly.
@Suite("Emitted documents look like Mastodon's")
struct EmittedDocumentsTests {
    /// `2026-11-23T23:57:10Z`: whole seconds, UTC, as Mastodon writes dates.
    static func isMastodonDate(_ value: Any?) -> Bool {
        guard let text = value as? String else { return false }
        return text.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil
    }

    @Test("Create, Update and Delete of a post: whole-second dates, summary and sensitive always, Delete with a Tombstone")
    func postActivities() async throws {
        let test = try TestNode.make(); defer { test.remove() }
        let alice = try await test.node.accounts.create(username: "alice", email: "alice@example.com", password: "correct horse")
        try await test.node.database.writeSQL { db in
            var bob = Account(username: "bob", domain: "remote.test", uri: "https://remote.test/users/bob")
            bob.inboxUrl = "https://remote.test/users/bob/inbox"
            bob.sharedInboxUrl = "https://remote.test/inbox"
            try bob.insert(db)
            try Follow(accountId: bob.id, targetAccountId: alice.id, uri: "https://remote.test/follows/1", state: .accepted).insert(db)
        }
        let post = try await test.node.posts.create(.init(text: "Sunrise over the pier #sunrise"), by: alice)
        try await Task.sleep(for: .milliseconds(20))
        _ = try await test.node.posts.edit(post.id, text: "Sunrise over the old pier #sunrise", by: alice)
        try await test.withClient { client in
            try await client.execute(uri: "/users/alice/statuses/\(post.id)", method: .get, headers: [.accept: "application/activity+json"]) { response in
                let note = try #require(response.json)
                Self.expectMastodonNote(note, edited: true)
            }
        }
        try await test.node.posts.delete(post.id, by: alice)
        let payloads = try await test.node.database.readSQL { db in
            try Data.fetchAll(db, sql: "SELECT payload FROM delivery_queue ORDER BY id")
        }.compactMap { try JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        #expect(payloads.map { $0["type"] as? String } == ["Create", "Update", "Delete"])
        for activity in payloads.prefix(2) {
            #expect(Self.isMastodonDate(activity["published"]) || activity["published"] == nil)
            let note = try #require(activity["object"] as? [String: Any])
            Self.expectMastodonNote(note, edited: activity["type"] as? String == "Update")
        }
        let delete = try #require(payloads.last)
        let tombstone = try #require(delete["object"] as? [String: Any])
        #expect(tombstone["type"] as? String == "Tombstone")
        #expect(tombstone["id"] as? String == post.uri)
    }

    @Test("an account without a display name is named by its username in its actor, as Mastodon does")
    func actorNameFallsBackToUsername() async throws {
        let test = try TestNode.make(); defer { test.remove() }
        _ = try await test.node.accounts.create(username: "alice", email: "alice@example.com", password: "correct horse")
        _ = try await test.node.accounts.create(username: "carol", email: "carol@example.com", password: "correct horse", displayName: "Carol")
        try await test.withClient { client in
            for (username, name) in [("alice", "alice"), ("carol", "Carol")] {
                try await client.execute(uri: "/users/\(username)", method: .get, headers: [.accept: "application/activity+json"]) { response in
                    let actor = try #require(response.json)
                    #expect(actor["name"] as? String == name)
                }
            }
        }
    }

    static func expectMastodonNote(_ note: [String: Any], edited: Bool) {
        #expect(note["type"] as? String == "Note")
        #expect(isMastodonDate(note["published"]))
        if edited { #expect(isMastodonDate(note["updated"])) }
        #expect(note.keys.contains("summary"))
        #expect(note["summary"] is NSNull)
        #expect(note["sensitive"] as? Bool == false)
    }

    @Test("GET / answers 200 with a page naming the node")
    func landingPage() async throws {
        let test = try TestNode.make(); defer { test.remove() }
        try await test.withClient { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
                let page = String(buffer: response.body)
                #expect(page.contains("<h1>FedNode</h1>"))
                #expect(page.contains("social.test"))
            }
            try await client.execute(uri: "/", method: .head) { response in
                #expect(response.status == .ok)
            }
        }
    }

    @Test("WebFinger on a host:port node also takes acct:user@host and any letter case of its URLs")
    func webfingerWithoutPort() async throws {
        let test = try TestNode.make(domain: "127.0.0.1:8081")
        defer { test.remove() }
        _ = try await test.node.accounts.create(username: "alice", email: "alice@example.com", password: "correct horse")
        try await test.withClient { client in
            for resource in ["acct:alice@127.0.0.1", "alice@127.0.0.1", "HTTP://127.0.0.1:8081/users/alice"] {
                let encoded = resource.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                try await client.execute(uri: "/.well-known/webfinger?resource=\(encoded)", method: .get) { response in
                    #expect(response.status == .ok, "\(resource)")
                    #expect(response.json?["subject"] as? String == "acct:alice@127.0.0.1:8081")
                }
            }
            for foreign in ["acct:alice@127.0.0.1:9999", "acct:alice@127.0.0.2", "http://127.0.0.1:9999/users/alice"] {
                let encoded = foreign.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                try await client.execute(uri: "/.well-known/webfinger?resource=\(encoded)", method: .get) { response in
                    #expect(response.status == .notFound, "\(foreign)")
                }
            }
        }
    }

    @Test("another spelling of a local URL is local: never fetched, never stored as a remote account")
    func localURLSpellings() async throws {
        let test = try TestNode.make(domain: "127.0.0.1:8081")
        defer { test.remove() }
        let alice = try await test.node.accounts.create(username: "alice", email: "alice@example.com", password: "correct horse")
        let urls = test.node.urls
        #expect(urls.canonicalLocal("HTTP://127.0.0.1:8081/users/alice#main-key") == "http://127.0.0.1:8081/users/alice#main-key")
        #expect(urls.canonicalLocal("http://127.0.0.1:8082/users/alice") == nil)
        #expect(urls.canonicalLocal("https://127.0.0.1:8081/users/alice") == nil)
        let resolved = try await test.node.remoteAccounts.resolve(uri: "HTTP://127.0.0.1:8081/users/alice")
        #expect(resolved.id == alice.id)
        let count = try await test.node.database.readSQL { try Account.fetchCount($0) }
        #expect(count == 1)
    }
}
