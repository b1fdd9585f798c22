import Dispatch
import Foundation
import Signatures
import Storage
import Synchronization

/// The inbox benchmark's requests, built and signed before any timing starts: distinct
/// `Create(Note)` activities (a photo post each) from the 1,000 keyed actors in turn, POSTed to
/// the shared inbox and signed as Mastodon signs (draft-cavage-12, `(request-target) host date
/// digest content-type`). Activity `n` is the same in every run; only `Date` and the signature
/// depend on when it is signed.
public enum InboxTraffic {
    /// The `Host` the requests name and sign: the node's domain, whatever port it listens on.
    static let host = BenchWorld.localDomain

    /// Signed requests for activities `range`, signed on every core.
    /// - Parameter keys: At least `BenchWorld.keyedActorCount` keys; actor `n % 1000` signs activity `n`.
    public static func signed(_ range: Range<Int>, keys: [RSAPrivateKey]) throws(BenchError) -> [[UInt8]] {
        let slots = Mutex([[UInt8]?](repeating: nil, count: range.count))
        let now = Date()
        DispatchQueue.concurrentPerform(iterations: range.count) { offset in
            let request = try? request(range.lowerBound + offset, keys: keys, now: now)
            slots.withLock { $0[offset] = request }
        }
        let requests = slots.withLock { $0.compactMap { $0 } }
        guard requests.count == range.count else { throw .setup("signing inbox requests failed") }
        return requests
    }

    /// `GET path` requests for the same server, `count` times (the trivial-endpoint reference
    /// and the client API use these).
    public static func gets(_ paths: [String], headers: [String] = []) -> [[UInt8]] {
        paths.map { path in
            Array(((["GET \(path) HTTP/1.1", "Host: \(host)", "User-Agent: fednode-bench/1"] + headers).joined(separator: "\r\n") + "\r\n\r\n").utf8)
        }
    }

    private static func request(_ number: Int, keys: [RSAPrivateKey], now: Date) throws -> [UInt8] {
        let actor = number % BenchWorld.keyedActorCount
        let body = Array(activity(number).utf8)
        var signable = SignableRequest(
            method: "POST", path: "/inbox", authority: host, scheme: "https",
            headers: [("Host", host), ("Content-Type", "application/activity+json")], body: body)
        try RequestSigner(keyId: BenchWorld.keyId(actor), privateKey: keys[actor]).sign(&signable, now: now)
        let lines = ["POST /inbox HTTP/1.1", "User-Agent: fednode-bench/1 (+https://\(BenchWorld.domain(actor))/)"]
            + signable.headers.map { "\($0.name): \($0.value)" } + ["Content-Length: \(body.count)"]
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + body
    }

    /// Activity `number` as JSON: a public photo post with a caption, a hashtag and an image.
    static func activity(_ number: Int) -> String {
        let actor = number % BenchWorld.keyedActorCount
        let actorURI = BenchWorld.actorURI(actor)
        let domain = BenchWorld.domain(actor)
        let noteId = "\(actorURI)/statuses/\(100_000_000 + number)"
        let published = SQLiteTime.iso8601(millis: Int64(BenchWorld.inboxStart.timeIntervalSince1970 * 1000) + Int64(number) * 1000)
        var random = SeededGenerator(seed: UInt64(number))
        let caption = TimelineDatabase.caption(number, random: &random).replacingOccurrences(of: "\"", with: "\\\"")
        return """
            {"@context":["https://www.w3.org/ns/activitystreams","https://w3id.org/security/v1"],\
            "id":"\(noteId)/activity","type":"Create","actor":"\(actorURI)","published":"\(published)",\
            "to":["https://www.w3.org/ns/activitystreams#Public"],"cc":["\(actorURI)/followers"],\
            "object":{"id":"\(noteId)","type":"Note","attributedTo":"\(actorURI)","published":"\(published)",\
            "url":"https://\(domain)/@\(BenchWorld.username(actor))/\(100_000_000 + number)","sensitive":false,\
            "to":["https://www.w3.org/ns/activitystreams#Public"],"cc":["\(actorURI)/followers"],\
            "content":"\(caption)","contentMap":{"en":"\(caption)"},\
            "attachment":[{"type":"Document","mediaType":"image/jpeg","url":"https://\(domain)/media/\(number).jpg",\
            "name":"Photo \(number)","blurhash":"LEHV6nWB2yk8pyo0adR*.7kCMdnj","width":1080,"height":1350}],\
            "tag":[{"type":"Hashtag","href":"https://\(domain)/tags/photography","name":"#photography"}]}}
            """
    }
}
