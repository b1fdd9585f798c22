@testable import Core
import Foundation
import GRDB
import Signatures
import Storage
import Testing
@testable import FedNode

/// Remote profiles and posts are cut to sane sizes before they are sanitised and stored, and
/// only http(s) URLs from remote documents are kept.
@Suite("Remote content limits and URL schemes", .serialized)
struct RemoteContentLimitsTests {
    @Test("a giant bio, name and fields are truncated and javascript: URLs dropped; the account still federates")
    func actorIsCapped() async throws {
        let (a, evil) = (try NetworkNode(name: "a"), try HostileOrigin())
        defer { a.remove() }
        try await a.start(workers: false)
        try await evil.start()
        let alice = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let fields = [["type": "PropertyValue", "name": "Site", "value": "<a href=\"javascript:alert(1)\">click</a>"]]
            + (0..<40).map { ["type": "PropertyValue", "name": "field \($0) " + String(repeating: "n", count: 1000),
                              "value": String(repeating: "v", count: 1000)] }
        let loud = evil.actor("loud", extra: [
            "name": String(repeating: "N", count: 5000),
            "summary": "<p>" + String(repeating: "bio ", count: 50_000) + "</p>",
            "url": "javascript:alert(document.cookie)",
            "icon": ["type": "Image", "url": "javascript:alert(1)"],
            "image": ["type": "Image", "url": "data:image/png;base64,AAAA"],
            "attachment": fields,
        ])
        let id = try #require(loud["id"] as? String)
        evil.serve("/users/loud", json: loud)
        let follow: [String: Any] = ["@context": "https://www.w3.org/ns/activitystreams", "id": id + "/follows/1", "type": "Follow",
                                     "actor": id, "object": alice.uri]
        #expect(try await evil.deliver(follow, to: a, keyId: id + "#main-key") == 202)

        let account = try #require(try a.read { try Account.withURI(id).fetchOne($0) })
        #expect(account.displayName.count == RemoteLimits.displayName)
        #expect(account.note.count <= RemoteLimits.note + 20 && account.note.hasPrefix("<p>bio bio"), "the bio is kept, shortened")
        #expect(account.fields.count == RemoteLimits.fields)
        #expect(account.fields.allSatisfy { $0.name.count <= RemoteLimits.fieldText && $0.value.count <= RemoteLimits.fieldText })
        #expect(account.fields.first?.name == "Site" && account.fields.first?.value.contains("javascript") == false,
                "field links are sanitised HTML: only http(s) hrefs survive")
        #expect(account.url == id, "a javascript: profile URL falls back to the actor id")
        #expect(account.avatarUrl == nil && account.headerUrl == nil)
        await evil.stop()
        await a.stop()
    }

    @Test("a huge caption, warning and alt text are truncated; javascript: post and media URLs and impossible sizes are dropped")
    func postIsCapped() async throws {
        let (a, evil) = (try NetworkNode(name: "a"), try HostileOrigin())
        defer { a.remove() }
        try await a.start(workers: false)
        try await evil.start()
        _ = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        evil.serve("/users/loud", json: evil.actor("loud"))
        let id = "\(evil.base)/users/loud"
        let note: [String: Any] = [
            "id": id + "/statuses/1", "type": "Note", "attributedTo": id, "to": ["https://www.w3.org/ns/activitystreams#Public"],
            "content": "<p>" + String(repeating: "word ", count: 60_000) + "</p>",
            "summary": String(repeating: "w", count: 5000),
            "url": "javascript:alert(1)",
            "attachment": [
                ["type": "Document", "mediaType": "image/jpeg", "url": "javascript:alert(2)", "name": "bad"],
                ["type": "Document", "mediaType": "image/jpeg", "url": "\(evil.base)/photo.jpg", "name": String(repeating: "a", count: 5000),
                 "width": -5, "height": 4_000_000],
            ],
        ]
        let create: [String: Any] = ["@context": "https://www.w3.org/ns/activitystreams", "id": id + "/statuses/1/activity", "type": "Create",
                                     "actor": id, "to": ["https://www.w3.org/ns/activitystreams#Public"], "object": note]
        #expect(try await evil.deliver(create, to: a, keyId: id + "#main-key") == 202)
        await InboxWorker(node: a.node).processDue()

        let post = try #require(try a.read { try Post.filter(Column("uri") == id + "/statuses/1").fetchOne($0) })
        #expect(post.content.count <= RemoteLimits.content + 20 && post.content.hasPrefix("<p>word word"))
        #expect(post.spoilerText.count == RemoteLimits.summary)
        #expect(post.url == post.uri, "a javascript: post URL falls back to the post id")
        let media = try a.read { try MediaAttachment.filter(Column("post_id") == post.id).fetchAll($0) }
        #expect(media.map(\.remoteUrl) == ["\(evil.base)/photo.jpg"])
        #expect(media.first?.description.count == RemoteLimits.altText)
        #expect(media.first?.width == nil && media.first?.height == nil, "impossible declared sizes are dropped")
        await evil.stop()
        await a.stop()
    }
}
