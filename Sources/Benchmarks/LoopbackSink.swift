import CLinux
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
    /// The loopback address of each sink, in the same order.
    public let addresses: [String]
    // Set up in `init`, then touched only by the sink thread until `stop()` joins it.
    private let listeners: [Int32]
    private let tally = Mutex(Tally())
    private let stopping = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)

    /// Opens `count` listening sockets, spread over `machines` loopback addresses (127.0.1.1
    /// and up), as servers spread over machines: the node bounds its requests per address.
    /// - Throws: `BenchError.system` when a port cannot be opened.
    public init(count: Int, machines: Int = 1) throws(BenchError) {
        var listeners: [Int32] = []
        var ports: [Int] = []
        var addresses: [String] = []
        for index in 0..<count {
            let address = machines <= 1 ? "127.0.0.1" : "127.0.1.\(index % min(machines, 250) + 1)"
            addresses.append(address)
            let (fd, port) = try LoopbackSocket.listen(address: address)
            LoopbackSocket.setNonBlocking(fd)
            listeners.append(fd)
            ports.append(port)
        }
        self.listeners = listeners
        self.ports = ports
        self.addresses = addresses
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

    /// Waits with `epoll(7)`, which hands back only the sockets that are ready: `poll(2)` over
    /// 200 listeners and as many connections made the sinks spend over half their CPU in the
    /// kernel scanning idle sockets, CPU the node under test shares.
    private func serve() {
        let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        precondition(epoll >= 0, "epoll_create1: errno \(errno)")
        let listening = Set(listeners)
        for fd in listeners { Self.watch(fd, in: epoll) }
        var clients: [Int32: Client] = [:]
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        var scratch = [UInt8](repeating: 0, count: 65536)
        let response = Array("HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n".utf8)
        while !stopping.load(ordering: .relaxed) {
            let ready = epoll_wait(epoll, &events, Int32(events.count), 100)
            guard ready > 0 else { continue }
            for event in events[0..<Int(ready)] {
                let fd = event.data.fd
                if listening.contains(fd) {
                    for client in acceptAll(fd) {
                        Self.watch(client, in: epoll)
                        clients[client] = Client(fd: client)
                    }
                } else if clients[fd] != nil, !serve(&clients[fd]!, scratch: &scratch, response: response) {
                    close(fd)  // also takes it out of the epoll set
                    clients[fd] = nil
                }
            }
        }
        for fd in clients.keys { close(fd) }
        for fd in listeners { close(fd) }
        close(epoll)
        stopped.store(true, ordering: .sequentiallyConsistent)
    }

    /// Adds `fd` to `epoll`, readable (level-triggered: a socket with bytes left over is
    /// handed back at the next wait).
    private static func watch(_ fd: Int32, in epoll: Int32) {
        var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(fd: fd))
        precondition(epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) == 0, "epoll_ctl: errno \(errno)")
    }

    /// Accepts every pending connection on `listener`.
    /// - Returns: The new connections, non-blocking, with Nagle off.
    private func acceptAll(_ listener: Int32) -> [Int32] {
        var accepted: [Int32] = []
        while true {
            // Close-on-exec from the start: no server process spawned meanwhile may hold it.
            let fd = accept4(listener, nil, nil, Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue))
            guard fd >= 0 else { return accepted }
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            accepted.append(fd)
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
