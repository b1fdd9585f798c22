@testable import Core
import Foundation
import GRDB
import Signatures
import Storage
import Testing
@testable import FedNode

/// Hostile and broken requests to a real node's inbox, signed (or not) with a real remote
/// account's key: each gets a clear 4xx and nothing is stored.
@Suite("Hostile inbox input", .serialized)
struct HostileInboxTests {
    struct Sender {
        let a: NetworkNode
        let b: NetworkNode
        let bob: Account
        let key: RSAPrivateKey

        func post(_ body: [UInt8], actor: String? = nil, contentType: String = "application/activity+json",
                  tamper: (inout SignableRequest) -> Void = { _ in }, date: Date = Date()) async throws -> Int {
            var request = SignableRequest(method: "POST", path: "/inbox", authority: a.domain, scheme: "http",
                                          headers: [("Content-Type", contentType)], body: body)
            try RequestSigner(keyId: bob.publicKeyId!, privateKey: key).sign(&request, now: date)
            tamper(&request)
            let response = try await a.node.httpClient.execute(HTTPClientRequest(method: "POST", url: "http://\(a.domain)/inbox",
                                                                                 headers: request.headers, body: request.body))
            return response.status
        }

        func note(id: String, objectId: String, actor: String? = nil) -> [UInt8] {
            let actor = actor ?? bob.uri
            return Array("""
                {"@context":"https://www.w3.org/ns/activitystreams","id":"\(id)","type":"Create","actor":"\(actor)",
                 "to":["https://www.w3.org/ns/activitystreams#Public"],
                 "object":{"id":"\(objectId)","type":"Note","attributedTo":"\(actor)","content":"<p>hi</p>","to":"as:Public"}}
                """.utf8)
        }

        var stored: Int {
            get throws { try a.read { try InboxItem.fetchCount($0) + Post.fetchCount($0) } }
        }
    }

    @Test("bad signatures, digests, dates, owners, origins, sizes and JSON are refused; duplicates are idempotent")
    func hostile() async throws {
        let (a, b) = (try NetworkNode(name: "a"), try NetworkNode(name: "b"))
        defer { [a, b].forEach { $0.remove() } }
        try await a.start(workers: false)
        try await b.start()
        let bob = try await b.node.accounts.create(username: "bob", email: "bob@b.test", password: "bob password")
        _ = try await a.node.accounts.create(username: "alice", email: "alice@a.test", password: "alice password")
        let sender = Sender(a: a, b: b, bob: bob, key: try RSAPrivateKey(pem: bob.privateKeyPem!))
        let good = sender.note(id: bob.uri + "/activities/1", objectId: bob.uri + "/statuses/1")

        #expect(try await sender.post(good, tamper: { $0.setHeader("Signature", "keyId=\"\(bob.publicKeyId!)\",headers=\"(request-target) host date digest\",signature=\"AAAA\"") }) == 401)
        #expect(try await sender.post(good, tamper: { $0.removeHeader("Signature") }) == 401)
        #expect(try await sender.post(good, tamper: { $0.removeHeader("Digest") }) == 401)
        let other = sender.note(id: bob.uri + "/activities/99", objectId: bob.uri + "/statuses/99")
        #expect(try await sender.post(good, tamper: { $0.body = other }) == 401, "body does not match the Digest")
        #expect(try await sender.post(good, date: Date().addingTimeInterval(-13 * 3600)) == 401)
        let impersonation = sender.note(id: bob.uri + "/activities/2", objectId: bob.uri + "/statuses/2", actor: "http://\(a.domain)/users/alice")
        #expect(try await sender.post(impersonation) == 403)
        let spoof = sender.note(id: bob.uri + "/activities/3", objectId: "http://\(a.domain)/users/alice/statuses/9")
        #expect(try await sender.post(spoof) == 403)
        #expect(try await sender.post(Array(repeating: UInt8(ascii: " "), count: 1024 * 1024 + 1)) == 413)
        #expect(try await sender.post(Array("{not json".utf8)) == 400)
        #expect(try await sender.post(Array(String(repeating: "[", count: 100).utf8)) == 400)
        #expect(try await sender.post(good, contentType: "text/plain") == 415)
        #expect(try sender.stored == 0, "nothing stored from refused requests")

        #expect(try await sender.post(good) == 202)
        #expect(try await sender.post(good) == 202)
        #expect(try a.read { try InboxItem.fetchCount($0) } == 1, "a duplicate activity id is queued once")
        await a.stop()
        await b.stop()
    }
}
