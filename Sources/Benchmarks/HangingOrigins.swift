import Core
import FedNode
import Foundation
import Signatures
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Many hostile servers on one machine: `count` authorities (one port each) on one loopback
/// address, below any HTTP library. Each answers its actors' documents (`/users/NAME`) at once,
/// unless told to hang those too, and accepts every other request, reads it, and never answers:
/// the slow origin an attacker runs on twenty cheap domains. It counts the requests it holds and
/// how many of them the client gave up on (closed), so a test can tell whether something
/// happened before any of the node's requests to it timed out. The slow-origins tests and the
/// benchmark's "under attack" rows use it.
public final class HangingOrigins: Sendable {
    /// The address every authority listens on (`127.0.0.3`: not the test nodes' own).
    public let address: String
    /// The ports, one per authority.
    public let ports: [Int]
    /// The key every actor here signs with.
    public let key: RSAPrivateKey
    private let hangActors: Bool
    private let listeners: [Int32]
    private let state = Mutex<(open: Set<Int32>, held: Int, abandoned: Int, stopped: Bool)>(([], 0, 0, false))

    /// Starts listening on `count` ports of `address`.
    /// - Parameter hangActors: Hold actor documents too (a `keyId` that never answers).
    public init(count: Int, address: String = "127.0.0.3", hangActors: Bool = false) throws(BenchError) {
        self.address = address
        self.hangActors = hangActors
        do { key = try RSAPrivateKey.generate() } catch { throw .setup("cannot generate a key: \(error)") }
        var (listeners, ports) = ([Int32](), [Int]())
        for _ in 0..<count {
            let (fd, port) = try Self.listen(on: address)
            listeners.append(fd)
            ports.append(port)
        }
        (self.listeners, self.ports) = (listeners, ports)
        for fd in listeners { Thread.detachNewThread { [self] in acceptLoop(fd) } }
    }

    /// `http://ADDRESS:PORT` of authority `index`.
    public func base(_ index: Int) -> String { "http://\(address):\(ports[index])" }
    /// The id of actor `name` on authority `index`.
    public func actor(_ name: String, on index: Int) -> String { "\(base(index))/users/\(name)" }
    /// Requests being held now.
    public var held: Int { state.withLock { $0.held } }
    /// Held requests whose client gave up (closed the connection).
    public var abandoned: Int { state.withLock { $0.abandoned } }

    /// A signed POST of `activity` to `inbox`, as `name` on authority `index` signs it.
    public func signedPost(_ activity: [String: Any], from name: String, on index: Int, to inbox: String) throws -> HTTPClientRequest {
        let body = Array(try JSONSerialization.data(withJSONObject: activity, options: [.withoutEscapingSlashes]))
        let url = URLComponents(string: inbox)!
        var request = SignableRequest(method: "POST", path: url.path, authority: "\(url.host!):\(url.port!)", scheme: "http",
                                      headers: [("Content-Type", "application/activity+json")], body: body)
        try RequestSigner(keyId: actor(name, on: index) + "#main-key", privateKey: key).sign(&request)
        return HTTPClientRequest(method: "POST", url: inbox, headers: request.headers, body: request.body)
    }

    /// Stops listening and closes every held connection.
    public func stop() {
        state.withLock { state in
            state.stopped = true
            for fd in state.open { shutdown(fd, Int32(SHUT_RDWR)) }
        }
        for fd in listeners { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    private static func listen(on address: String) throws(BenchError) -> (Int32, Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, address, &socketAddress.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &socketAddress) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound, Glibc.listen(fd, 256) == 0 else {
            let code = errno
            close(fd)
            throw .system("bind/listen on \(address)", code)
        }
        return (fd, Int(UInt16(bigEndian: socketAddress.sin_port)))
    }

    private func acceptLoop(_ listener: Int32) {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                close(listener)
                return
            }
            let accepted = state.withLock { state in
                guard !state.stopped else { close(client); return false }
                state.open.insert(client)
                return true
            }
            if accepted { Thread.detachNewThread { [self] in serve(client, port: listener) } }
        }
    }

    /// Reads one request head; answers an actor document, or holds the connection until the
    /// client closes it or the origins stop.
    private func serve(_ fd: Int32, port listener: Int32) {
        defer { state.withLock { state in state.open.remove(fd); close(fd) } }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while !String(decoding: received, as: UTF8.self).contains("\r\n\r\n") {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { return }
            received += buffer[..<count]
        }
        let requestLine = String(decoding: received, as: UTF8.self).prefix { $0 != "\r" }
        let parts = requestLine.split(separator: " ")
        let path = parts.count > 1 ? String(parts[1]) : ""
        if !hangActors, requestLine.hasPrefix("GET "), let document = actorDocument(path, listener: listener) {
            let header = "HTTP/1.1 200 OK\r\nContent-Type: application/activity+json\r\nContent-Length: \(document.count)\r\nConnection: close\r\n\r\n"
            let bytes = Array(header.utf8) + document
            _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            return
        }
        state.withLock { $0.held += 1 }
        // Hold: read (and drop) whatever comes until the client closes or we stop.
        while read(fd, &buffer, buffer.count) > 0 {}
        state.withLock { state in
            state.held -= 1
            if !state.stopped { state.abandoned += 1 }
        }
    }

    /// The actor document for `/users/NAME` on the authority listening on `listener`.
    private func actorDocument(_ path: String, listener: Int32) -> [UInt8]? {
        guard path.hasPrefix("/users/"), let index = listeners.firstIndex(of: listener) else { return nil }
        let name = String(path.dropFirst("/users/".count))
        guard !name.isEmpty, !name.contains("/") else { return nil }
        let id = actor(name, on: index)
        let document: [String: Any] = [
            "@context": ["https://www.w3.org/ns/activitystreams", "https://w3id.org/security/v1"],
            "id": id, "type": "Person", "preferredUsername": name, "inbox": "\(id)/inbox",
            "publicKey": ["id": "\(id)#main-key", "owner": id, "publicKeyPem": key.publicKey.spkiPEM],
        ]
        return Array(try! JSONSerialization.data(withJSONObject: document, options: [.withoutEscapingSlashes]))
    }
}
