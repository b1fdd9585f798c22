@testable import Core
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Signatures
import Storage
import Synchronization
@testable import FedNode

/// A fake remote server on loopback, for what a real node cannot play: hostile or broken
/// answers (oversized, redirected, failing, slow) and activities a real node would never sign.
/// It serves the documents it is given, signs with real RSA keys and counts what it is asked.
final class HostileOrigin: Sendable {
    /// One canned answer.
    struct Answer: Sendable {
        var status = 200
        var body: [UInt8] = []
        var location: String?
        var delay: Duration?
    }

    struct State {
        var answers: [String: Answer] = [:]
        var hits: [String] = []
        var posted: [(path: String, body: [UInt8])] = []
        var inFlight = 0
        var maxInFlight = 0
    }

    let port: Int
    let key: RSAPrivateKey
    private let state = Mutex(State())
    private let server = Mutex<GracefulServer?>(nil)

    /// `127.0.0.1:PORT`, the origin's authority.
    var domain: String { "127.0.0.1:\(port)" }
    /// `http://127.0.0.1:PORT`.
    var base: String { "http://\(domain)" }
    /// Paths requested so far, in order.
    var hits: [String] { state.withLock { $0.hits } }
    /// Bodies POSTed so far (deliveries to its inboxes), with their paths, in order.
    var posted: [(path: String, body: [UInt8])] { state.withLock { $0.posted } }
    /// The most requests that were in progress at once.
    var maxInFlight: Int { state.withLock { $0.maxInFlight } }

    init() throws {
        port = try FreePort.find()
        key = try RSAPrivateKey.generate()
    }

    /// Serves `answer` at `path` (any method).
    func serve(_ path: String, _ answer: Answer) {
        state.withLock { $0.answers[path] = answer }
    }

    /// Serves a JSON document at `path`.
    func serve(_ path: String, json: [String: Any], status: Int = 200) {
        let body = try! JSONSerialization.data(withJSONObject: json, options: [.withoutEscapingSlashes])
        serve(path, Answer(status: status, body: Array(body)))
    }

    /// An actor document for `username` on this origin, signed with `key`, merged with `extra`.
    func actor(_ username: String, extra: [String: Any] = [:]) -> [String: Any] {
        let id = "\(base)/users/\(username)"
        var document: [String: Any] = [
            "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
            "id": id, "type": "Person", "preferredUsername": username, "name": username,
            "inbox": "\(id)/inbox", "outbox": "\(id)/outbox", "followers": "\(id)/followers", "following": "\(id)/following",
            "endpoints": ["sharedInbox": "\(base)/inbox"],
            "publicKey": ["id": "\(id)#main-key", "owner": id, "publicKeyPem": key.publicKey.spkiPEM],
        ]
        document.merge(extra) { $1 }
        return document
    }

    /// Posts `activity` to `node`'s shared inbox, signed with `keyId` (this origin's key unless
    /// `signingKey` is given) for the authority `signedHost` (the node's own unless given).
    /// - Returns: The status the node answered.
    func deliver(_ activity: [String: Any], to node: NetworkNode, keyId: String, signingKey: RSAPrivateKey? = nil,
                 signedHost: String? = nil) async throws -> Int {
        let body = Array(try JSONSerialization.data(withJSONObject: activity, options: [.withoutEscapingSlashes]))
        return try await deliver(body: body, to: node, keyId: keyId, signingKey: signingKey, signedHost: signedHost)
    }

    /// Posts raw `body` bytes; see `deliver(_:to:keyId:signingKey:signedHost:)`.
    func deliver(body: [UInt8], to node: NetworkNode, keyId: String, signingKey: RSAPrivateKey? = nil,
                 signedHost: String? = nil) async throws -> Int {
        var request = SignableRequest(method: "POST", path: "/inbox", authority: signedHost ?? node.domain, scheme: "http",
                                      headers: [("Content-Type", "application/activity+json")], body: body)
        try RequestSigner(keyId: keyId, privateKey: signingKey ?? key).sign(&request)
        let response = try await node.node.httpClient.execute(
            HTTPClientRequest(method: "POST", url: "http://\(node.domain)/inbox", headers: request.headers, body: request.body))
        return response.status
    }

    func start() async throws {
        let router = Router()
        router.get("**") { request, _ -> Response in try await self.handle(request) }
        router.post("**") { request, _ -> Response in try await self.handle(request) }
        server.withLock { $0 = GracefulServer(router: router, port: port, label: "hostile-origin") }
        let client = CurlHTTPClient(configuration: .init(userAgent: "test", allowPrivateAddresses: true))
        defer { client.shutdown() }
        for _ in 0..<200 {
            if (try? await client.execute(HTTPClientRequest(url: "\(base)/.ping"))) != nil {
                state.withLock { $0.hits.removeAll() }
                return
            }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw NodeError.internal("hostile origin did not start")
    }

    /// Stops serving gracefully (a server cancelled under a running handler trips NIO's
    /// writer checks).
    func stop() async {
        await server.withLock { $0 }?.stop()
    }

    private func handle(_ request: Request) async throws -> Response {
        let path = request.uri.path
        if request.method == .post {
            let body = Array(buffer: try await request.body.collect(upTo: 1 << 20))
            state.withLock { $0.posted.append((path, body)) }
        }
        let answer = state.withLock { state -> Answer? in
            state.hits.append(path)
            state.inFlight += 1
            state.maxInFlight = max(state.maxInFlight, state.inFlight)
            return state.answers[path]
        }
        defer { state.withLock { $0.inFlight -= 1 } }
        if let delay = answer?.delay { try? await Task.sleep(for: delay) }
        guard let answer else { return Response(status: .notFound) }
        var headers = HTTPFields()
        headers[.contentType] = "application/activity+json"
        if let location = answer.location { headers[.location] = location }
        return Response(status: .init(code: answer.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
    }
}
