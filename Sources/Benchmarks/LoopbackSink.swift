import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Inboxes of "remote servers" for the delivery benchmark: `count` listening sockets on
/// 127.0.0.1, each its own port and so its own domain, answering every request with
/// `202 Accepted` as fast as one thread can. It runs in the benchmark process, apart from the
/// node under test.
public final class LoopbackSink: @unchecked Sendable {
    /// What the sinks have answered so far.
    public struct Tally: Sendable {
        /// Requests answered.
        public var answered = 0
        /// Requests that carried an HTTP signature.
        public var signed = 0
        /// When each request's first byte was read, in answer order (monotonic nanoseconds).
        public var arrivals: [UInt64] = []
        /// When each answer was written, in the same order.
        public var answers: [UInt64] = []
    }

    /// The port of each sink.
    public let ports: [Int]
    // Set up in `init`, then touched only by the sink thread until `stop()` joins it.
    private let listeners: [Int32]
    private let tally = Mutex(Tally())
    private let stopping = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)

    /// Opens `count` listening sockets.
    /// - Throws: `BenchError.system` when a port cannot be opened.
    public init(count: Int) throws(BenchError) {
        var listeners: [Int32] = []
        var ports: [Int] = []
        for _ in 0..<count {
            let (fd, port) = try LoopbackSocket.listen()
            LoopbackSocket.setNonBlocking(fd)
            listeners.append(fd)
            ports.append(port)
        }
        self.listeners = listeners
        self.ports = ports
    }

    /// Starts answering on a thread of its own.
    public func start() {
        let thread = Thread { [self] in serve() }
        thread.name = "bench-sink"
        thread.start()
    }

    /// A copy of what was answered so far.
    public var snapshot: Tally { tally.withLock { $0 } }

    /// How many requests were answered so far.
    public var answered: Int { tally.withLock { $0.answered } }

    /// Stops the thread and closes every socket.
    public func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        while !stopped.load(ordering: .sequentiallyConsistent) { usleep(1000) }
    }

    private struct Client {
        var fd: Int32
        var buffer: [UInt8] = []
        var arrival: UInt64 = 0
    }

    private func serve() {
        var clients: [Client] = []
        var scratch = [UInt8](repeating: 0, count: 65536)
        let response = Array("HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n".utf8)
        while !stopping.load(ordering: .relaxed) {
            var set = listeners.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            set += clients.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            guard poll(&set, nfds_t(set.count), 100) > 0 else { continue }
            for index in listeners.indices where set[index].revents != 0 {
                acceptAll(listeners[index], into: &clients)
            }
            var closed: [Int] = []
            for index in 0..<(set.count - listeners.count) where set[listeners.count + index].revents != 0 {
                if !serve(&clients[index], scratch: &scratch, response: response) { closed.append(index) }
            }
            for index in closed.reversed() {
                close(clients[index].fd)
                clients.remove(at: index)
            }
        }
        for client in clients { close(client.fd) }
        for fd in listeners { close(fd) }
        stopped.store(true, ordering: .sequentiallyConsistent)
    }

    private func acceptAll(_ listener: Int32, into clients: inout [Client]) {
        while true {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)  // no server process spawned later may hold it
            LoopbackSocket.setNonBlocking(fd)
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            clients.append(Client(fd: fd))
        }
    }

    /// Reads what arrived and answers each complete request.
    /// - Returns: `false` when the client closed the connection.
    private func serve(_ client: inout Client, scratch: inout [UInt8], response: [UInt8]) -> Bool {
        let count = scratch.withUnsafeMutableBytes { read(client.fd, $0.baseAddress!, $0.count) }
        if count < 0 { return errno == EAGAIN || errno == EINTR }
        guard count > 0 else { return false }
        if client.buffer.isEmpty { client.arrival = MonotonicClock.now() }
        client.buffer.append(contentsOf: scratch[0..<count])
        while let head = HTTPFraming.head(in: client.buffer), let length = HTTPFraming.messageLength(head, in: client.buffer) {
            client.buffer.removeFirst(length)
            guard LoopbackSocket.writeAll(client.fd, response) else { return false }
            let answeredAt = MonotonicClock.now()
            tally.withLock { tally in
                tally.answered += 1
                if head.signed { tally.signed += 1 }
                tally.arrivals.append(client.arrival)
                tally.answers.append(answeredAt)
            }
            client.arrival = answeredAt
        }
        return true
    }
}
