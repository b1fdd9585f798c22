import Activity
import Foundation
import Signatures
import Testing
@testable import Benchmarks

/// The inbox benchmark's requests must be what a Mastodon server would send, or the figure
/// measures refusals: a verifiable draft-cavage signature and a Create of the actor's own Note.
@Suite struct InboxTrafficTests {
    @Test func signedRequestsVerifyWithTheActorsKeyAndCarryItsOwnNote() throws {
        let keys = [try RSAPrivateKey.generate(), try RSAPrivateKey.generate()]
        let requests = try InboxTraffic.signed(0..<2, keys: keys)
        for (number, bytes) in requests.enumerated() {
            let head = try #require(HTTPFraming.head(in: bytes))
            let text = String(decoding: bytes[0..<head.bodyStart], as: UTF8.self)
            let lines = text.split(separator: "\r\n").dropFirst()
            let headers = lines.map { line in
                let colon = line.firstIndex(of: ":")!
                return (name: String(line[..<colon]), value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
            let body = Array(bytes[head.bodyStart...])
            let request = SignableRequest(method: "POST", path: "/inbox", authority: BenchWorld.localDomain, headers: headers, body: body)
            let pending = try SignatureVerifier().prepare(request)
            #expect(pending.keyId == BenchWorld.keyId(number))
            #expect(pending.verify(with: keys[number].publicKey))
            #expect(!pending.verify(with: keys[1 - number].publicKey))

            let activity = try ASObject.decode(from: Data(body))
            #expect(activity.type == "Create" && activity.actor?.id == BenchWorld.actorURI(number))
            #expect(activity.object?.object?.attributedTo == BenchWorld.actorURI(number))
            #expect(activity.object?.id?.hasPrefix(BenchWorld.actorURI(number) + "/") == true)
        }
    }

    @Test func activitiesAreDistinctAndTheSameEveryRun() {
        #expect(InboxTraffic.activity(1_000) == InboxTraffic.activity(1_000))
        #expect(InboxTraffic.activity(1_000) != InboxTraffic.activity(2_000))
        // Same actor (n % 1000), different activity.
        #expect(InboxTraffic.activity(1_000).contains(BenchWorld.actorURI(0) + "\""))
    }
}
