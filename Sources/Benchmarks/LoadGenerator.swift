#if canImport(Glibc)
import Glibc
#endif

/// What one load run measured.
public struct LoadResult: Sendable {
    /// Latency of each answered request, send start to last response byte, in nanoseconds.
    public var latencies: [UInt64] = []
    /// How many responses came back with each status.
    public var statuses: [Int: Int] = [:]
    /// Requests that got no response (connection reset, timeout).
    public var failures = 0
    /// Requests sent again on a new connection because the kept-alive one they went out on
    /// turned out closed by the server before any byte of a response (as curl does).
    public var resent = 0
    /// From the first request written to the last response read, in seconds.
    public var seconds: Double = 0

    /// Responses with `status` per second.
    public func rate(of status: Int) -> Double {
        seconds > 0 ? Double(statuses[status, default: 0]) / seconds : 0
    }

    /// Every answered request per second.
    public var answeredRate: Double {
        seconds > 0 ? Double(latencies.count) / seconds : 0
    }

    /// The latencies of every answered request.
    public var stats: LatencyStats { LatencyStats(latencies) }
}

/// An HTTP/1.1 load generator over raw keep-alive sockets: each of `connections` connections
/// sends one pre-built request, waits for its response, then takes the next, in order. All
/// requests are serialised beforehand, so the generator's own cost per request is a `write`,
/// a `read` and a little framing, which keeps it small next to the server it measures.
public struct LoadGenerator: Sendable {
    /// Port on 127.0.0.1 of the server under test.
    public let port: Int
    /// Requests in flight at once, one per connection.
    public let connections: Int

    /// Creates a generator for the server on 127.0.0.1:`port`.
    public init(port: Int, connections: Int) {
        self.port = port
        self.connections = connections
    }

    /// Sends every request once, blocking the calling thread until all are answered or
    /// `limit` seconds pass.
    /// - Parameters:
    ///   - requests: Complete HTTP/1.1 requests, bytes as they go on the wire.
    ///   - limit: The most the run may take; unanswered requests count as failures.
    /// - Returns: What was measured.
    /// - Throws: `BenchError.system` when the connections cannot be opened.
    ///   - perSecond: When set, request `n` is not sent before `n / perSecond` seconds after the
    ///     start (an open-loop pace, as traffic arrives from many servers), else as fast as the
    ///     connections allow.
    public func run(_ requests: [[UInt8]], limit: Double = 120, perSecond: Double? = nil) throws(BenchError) -> LoadResult {
        var run = try LoadRun(port: port, connections: min(connections, max(1, requests.count)), requests: requests)
        run.interval = perSecond.map { UInt64(1e9 / $0) }
        defer { run.closeAll() }
        return run.execute(limit: limit)
    }
}

/// One connection's state in a run.
private struct Connection {
    var fd: Int32
    /// Index of the request in flight, or -1 when idle.
    var request = -1
    var written = 0
    var started: UInt64 = 0
    var buffer: [UInt8] = []
    /// Whether the request in flight is already a second attempt.
    var resending = false
}

/// The mutable state of one `LoadGenerator.run`, driven by `poll(2)` on one thread.
private struct LoadRun {
    let port: Int
    let requests: [[UInt8]]
    var connections: [Connection] = []
    var next = 0
    var finished = 0
    var result = LoadResult()
    var scratch = [UInt8](repeating: 0, count: 65536)
    /// Nanoseconds between the scheduled starts of consecutive requests, if paced.
    var interval: UInt64?

    init(port: Int, connections count: Int, requests: [[UInt8]]) throws(BenchError) {
        self.port = port
        self.requests = requests
        result.latencies.reserveCapacity(requests.count)
        for _ in 0..<count { connections.append(Connection(fd: try Self.open(port))) }
    }

    static func open(_ port: Int) throws(BenchError) -> Int32 {
        let fd = try LoopbackSocket.connect(port: port)
        LoopbackSocket.setNonBlocking(fd)
        return fd
    }

    mutating func execute(limit: Double) -> LoadResult {
        let start = MonotonicClock.now()
        let deadline = start + UInt64(limit * 1e9)
        var pollSet = [pollfd](repeating: pollfd(), count: connections.count)
        while finished < requests.count, MonotonicClock.now() < deadline {
            var wait: Int32 = 200
            for index in connections.indices where connections[index].request < 0 && next < requests.count {
                if let interval {
                    let due = start + UInt64(next) * interval, now = MonotonicClock.now()
                    if now < due {
                        // Rounded up: rounded down, a request due in under a millisecond made
                        // `poll` return at once, and the paced runs spun a whole core of the
                        // machine the server shares.
                        wait = Int32(min(200, (due - now + 999_999) / 1_000_000))
                        break
                    }
                }
                assign(index)
            }
            for (index, connection) in connections.enumerated() {
                let wantsWrite = connection.request >= 0 && connection.written < requests[connection.request].count
                pollSet[index] = pollfd(fd: connection.fd, events: Int16(POLLIN) | (wantsWrite ? Int16(POLLOUT) : 0), revents: 0)
            }
            guard poll(&pollSet, nfds_t(pollSet.count), wait) >= 0 || errno == EINTR else { break }
            for index in pollSet.indices where pollSet[index].revents != 0 {
                if pollSet[index].revents & Int16(POLLOUT) != 0 { flush(index) }
                if pollSet[index].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { receive(index) }
            }
        }
        result.failures += requests.count - finished
        result.seconds = MonotonicClock.seconds(from: start, to: MonotonicClock.now())
        return result
    }

    /// Starts the next request on an idle connection.
    private mutating func assign(_ index: Int) {
        if connections[index].fd < 0 { connections[index].fd = (try? Self.open(port)) ?? -1 }
        let request = next
        next += 1
        // The server takes no connections: the request fails now, rather than waiting on a
        // descriptor `poll` ignores until the run's limit.
        guard connections[index].fd >= 0 else { return countFailed() }
        start(request, on: index, startedAt: MonotonicClock.now(), resending: false)
    }

    /// Puts `request` in flight on connection `index` and writes what it can of it.
    private mutating func start(_ request: Int, on index: Int, startedAt started: UInt64, resending: Bool) {
        connections[index].request = request
        connections[index].written = 0
        connections[index].started = started
        connections[index].resending = resending
        flush(index)
    }

    /// Counts a request as ended without an answer.
    private mutating func countFailed() {
        result.failures += 1
        finished += 1
    }

    private mutating func flush(_ index: Int) {
        let connection = connections[index]
        guard connection.request >= 0 else { return }
        let bytes = requests[connection.request]
        guard connection.written < bytes.count else { return }
        let count = bytes.withUnsafeBytes {
            send(connection.fd, $0.baseAddress! + connection.written, bytes.count - connection.written, Int32(MSG_NOSIGNAL))
        }
        if count > 0 { connections[index].written += count }
    }

    private mutating func receive(_ index: Int) {
        let count = scratch.withUnsafeMutableBytes { read(connections[index].fd, $0.baseAddress!, $0.count) }
        if count < 0, errno == EAGAIN || errno == EINTR { return }
        guard count > 0 else { return fail(index) }
        connections[index].buffer.append(contentsOf: scratch[0..<count])
        guard let head = HTTPFraming.head(in: connections[index].buffer),
            let length = HTTPFraming.messageLength(head, in: connections[index].buffer)
        else { return }
        let connection = connections[index]
        if connection.request >= 0 {
            result.latencies.append(MonotonicClock.now() &- connection.started)
            result.statuses[head.status, default: 0] += 1
            finished += 1
        }
        connections[index].buffer.removeFirst(length)
        connections[index].request = -1
        if head.closes { reconnect(index) }
    }

    /// The connection broke. Every connection was open and idle before its request went out,
    /// so one that breaks before any byte of a response may have been closed by the server's
    /// idle timeout just as the request left (paced runs leave connections idle for long):
    /// the request goes again once on a new connection, as HTTP clients do with a kept-alive
    /// connection (curl: "Connection died, retrying a fresh connect"). Otherwise, or the second
    /// time, the request counts as failed. Either way a new connection replaces this one.
    private mutating func fail(_ index: Int) {
        let connection = connections[index]
        if connection.request >= 0, !connection.resending, connection.buffer.isEmpty {
            reconnect(index)
            guard connections[index].fd >= 0 else { return countFailed() }
            result.resent += 1
            start(connection.request, on: index, startedAt: connection.started, resending: true)
            return
        }
        if connection.request >= 0 { countFailed() }
        reconnect(index)
    }

    private mutating func reconnect(_ index: Int) {
        close(connections[index].fd)
        connections[index].request = -1
        connections[index].buffer.removeAll()
        // A server that refuses new connections leaves this one at -1: `assign` tries again,
        // and fails the request at once if it still cannot connect.
        connections[index].fd = (try? Self.open(port)) ?? -1
    }

    func closeAll() {
        for connection in connections where connection.fd >= 0 { close(connection.fd) }
    }
}
