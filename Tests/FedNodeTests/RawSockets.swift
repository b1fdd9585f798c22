import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A hostile or sloppy HTTP peer on loopback, below any HTTP library: it reads each request's
/// head and body (by Content-Length) and writes `answer` verbatim, then keeps the connection
/// open without another byte, as a server that sends `201` without a body and never closes does.
final class RawHTTPServer: Sendable {
    /// The port it listens on (127.0.0.1).
    let port: Int
    private let listener: Int32
    private let requests = Atomic<Int>(0)
    private let accepts = Atomic<Int>(0)
    /// The connections still open, and whether `stop` was called. A descriptor is closed only
    /// under this lock, by the thread that leaves its set: `stop` must never shut down a number
    /// the kernel has handed to another test's socket since (that reset unrelated connections).
    private let connections = Mutex<(open: Set<Int32>, stopped: Bool)>(([], false))

    /// Starts listening and answering on a background thread.
    init(answer: String) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = LoopbackPort.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound, listen(fd, 64) == 0 else { close(fd); throw StreamingTestTimeout(what: "a listening socket") }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let (listener, answer) = (fd, Array(answer.utf8))
        Thread.detachNewThread { [self] in
            // This thread owns the listener: `stop` only shuts it down, which ends `accept`.
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 {
                    if errno == EINTR || errno == ECONNABORTED { continue }
                    close(listener)
                    return
                }
                let accepted = connections.withLock { state in
                    guard !state.stopped else { close(client); return false }
                    state.open.insert(client)
                    return true
                }
                if accepted {
                    accepts.add(1, ordering: .relaxed)
                    Thread.detachNewThread { [self] in serve(client, answer: answer) }
                }
            }
        }
    }

    /// Requests answered so far.
    var answered: Int { requests.load(ordering: .relaxed) }

    /// Connections accepted so far.
    var connectionsAccepted: Int { accepts.load(ordering: .relaxed) }

    /// Stops listening and ends every connection; their threads close them.
    func stop() {
        connections.withLock { state in
            state.stopped = true
            for fd in state.open { shutdown(fd, Int32(SHUT_RDWR)) }
        }
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private func serve(_ fd: Int32, answer: [UInt8]) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else {
                if count < 0 && errno == EINTR { continue }
                connections.withLock { state in
                    state.open.remove(fd)
                    close(fd)
                }
                return
            }
            pending += buffer[..<count]
            while let request = Self.completeRequest(in: pending) {
                pending.removeFirst(request)
                requests.add(1, ordering: .relaxed)
                _ = answer.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
        }
    }

    /// The length of the first complete request in `bytes`, if one is complete.
    private static func completeRequest(in bytes: [UInt8]) -> Int? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { return nil }
        let head = text[..<end.lowerBound].lowercased()
        let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        let total = text[..<end.upperBound].utf8.count + length
        return bytes.count >= total ? total : nil
    }
}

/// A raw TCP client on loopback: sends bytes exactly as given and reads what comes back, with a
/// bound on the wait, so a test sees "no answer" as an answer rather than hanging.
struct RawHTTPClient {
    /// Sends `bytes` to 127.0.0.1:`port` and reads until the peer closes, `limit` seconds pass
    /// or `until` holds for what arrived.
    /// - Returns: What arrived, and whether the peer closed the connection.
    /// `exchange` on a thread of its own: its reads block for seconds, and a blocked thread of
    /// the small cooperative pool (two here) is one the node under test cannot answer on.
    static func exchange(port: Int, _ bytes: [UInt8], limit: Double = 10,
                         until done: @escaping @Sendable (String) -> Bool = { _ in false }) async throws -> (text: String, closed: Bool) {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try blockingExchange(port: port, bytes, limit: limit, until: done) })
            }
        }
    }

    /// Sends `bytes` and reads until the peer closes, `done` holds or `limit` seconds pass,
    /// blocking the calling thread.
    static func blockingExchange(port: Int, _ bytes: [UInt8], limit: Double = 10,
                                 until done: (String) -> Bool = { _ in false }) throws -> (text: String, closed: Bool) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = LoopbackPort.loopback(port: port)
        let connected = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { throw StreamingTestTimeout(what: "a connection to port \(port)") }
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = Date().addingTimeInterval(limit)
        while Date() < deadline {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count == 0 { return (String(decoding: received, as: UTF8.self), true) }
            if count < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
                return (String(decoding: received, as: UTF8.self), true)  // reset by the peer
            }
            received += buffer[..<count]
            if done(String(decoding: received, as: UTF8.self)) { break }
        }
        return (String(decoding: received, as: UTF8.self), false)
    }
}
