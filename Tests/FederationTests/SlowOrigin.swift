@testable import Core
import Foundation
import Hummingbird
import Signatures
import Synchronization
@testable import FedNode

/// A remote server that answers its actor documents at once but holds every request for a
/// post (`/users/NAME/statuses/ID`) until the test releases it: the slow origin a real node
/// cannot play. It counts the held requests, so a test can tell what was still pending when
/// something else happened.
final class SlowOrigin: Sendable {
    let port: Int
    let key: RSAPrivateKey
    private let state = Mutex<(held: Int, maxHeld: Int, answered: Int, released: Bool, waiters: [CheckedContinuation<Bool, Never>])>(
        (0, 0, 0, false, []))
    private let server = Mutex<GracefulServer?>(nil)

    var domain: String { "127.0.0.1:\(port)" }
    var base: String { "http://\(domain)" }
    /// Post requests waiting now.
    var held: Int { state.withLock { $0.held } }
    /// The most post requests that were waiting at once.
    var maxHeld: Int { state.withLock { $0.maxHeld } }
    /// Post requests answered.
    var answered: Int { state.withLock { $0.answered } }

    init() throws {
        port = try FreePort.find()
        key = try RSAPrivateKey.generate()
    }

    func actor(_ name: String) -> String { "\(base)/users/\(name)" }

    /// Starts serving and returns once the server answers.
    func start(client: CurlHTTPClient) async throws {
        let router = Router()
        router.get("users/:name") { _, context -> Response in
            try self.json(self.actorDocument(try context.parameters.require("name")))
        }
        router.get("users/:name/statuses/:id") { _, context -> Response in
            let (name, id) = (try context.parameters.require("name"), try context.parameters.require("id"))
            await self.hold()
            return try self.json(self.note(name: name, id: id))
        }
        server.withLock { $0 = GracefulServer(router: router, port: port, label: "slow-origin") }
        for _ in 0..<200 {
            if let response = try? await client.execute(HTTPClientRequest(url: actor("probe"))), response.status == 200 { return }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw NodeError.internal("slow origin did not start")
    }

    /// Answers every held request and every later one at once.
    func release() {
        let waiters = state.withLock { state in
            state.released = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume(returning: true) }
    }

    func stop() async {
        release()
        await server.withLock { $0 }?.stop()
    }

    /// A signed POST of `body` to `inbox`, as `name` on this origin signs it.
    func signedPost(_ body: String, from name: String, to inbox: String) throws -> HTTPClientRequest {
        let url = URLComponents(string: inbox)!
        var request = SignableRequest(method: "POST", path: url.path, authority: "\(url.host!):\(url.port!)", scheme: "http",
                                      headers: [("Content-Type", "application/activity+json")], body: Array(body.utf8))
        try RequestSigner(keyId: actor(name) + "#main-key", privateKey: key).sign(&request)
        return HTTPClientRequest(method: "POST", url: inbox, headers: request.headers, body: request.body)
    }

    private func hold() async {
        let counted = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if state.released { return true }
                state.held += 1
                state.maxHeld = max(state.maxHeld, state.held)
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume(returning: false) }
        }
        state.withLock { state in
            state.answered += 1
            if counted { state.held -= 1 }
        }
    }

    private func json(_ object: [String: Any]) throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/activity+json"
        return Response(status: .ok, headers: headers,
                        body: .init(byteBuffer: ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: object))))
    }

    private func actorDocument(_ name: String) throws -> [String: Any] {
        [
            "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
            "id": actor(name), "type": "Person", "preferredUsername": name, "name": "Slow \(name)",
            "inbox": actor(name) + "/inbox", "outbox": actor(name) + "/outbox", "followers": actor(name) + "/followers",
            "endpoints": ["sharedInbox": base + "/inbox"],
            "publicKey": ["id": actor(name) + "#main-key", "owner": actor(name), "publicKeyPem": try key.publicKey.spkiPEM],
        ]
    }

    private func note(name: String, id: String) -> [String: Any] {
        [
            "@context": "https://www.w3.org/ns/activitystreams",
            "id": actor(name) + "/statuses/" + id, "type": "Note", "attributedTo": actor(name),
            "content": "<p>from a slow server</p>", "published": "2026-01-01T00:00:00Z",
            "to": ["https://www.w3.org/ns/activitystreams#Public"], "cc": [actor(name) + "/followers"],
        ]
    }
}
