import Foundation
import HTTPTypes
import HummingbirdWSClient
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A server-sent events client over a raw non-blocking socket: parses the response head,
/// chunked transfer encoding and `event:`/`data:` blocks. Used by one test task at a time.
final class EventStreamClient: @unchecked Sendable {
    /// One received event.
    struct Event {
        let event: String
        let data: String
    }

    private let fd: Int32
    private var raw: [UInt8] = []
    private var body: [UInt8] = []
    private var chunked = false
    private var pendingEvent = ""
    private var pendingData: [String] = []
    private(set) var status = 0
    private(set) var headers: [String: String] = [:]
    private(set) var events: [Event] = []
    private(set) var comments: [String] = []
    private(set) var ended = false

    /// Connects to `port` and sends `GET path`, with a bearer token if given.
    init(port: Int, path: String, token: String? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = LoopbackPort.loopback(port: port)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else {
            close(fd)
            throw StreamingTestTimeout(what: "connect to port \(port)")
        }
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n"
        if let token { request += "Authorization: Bearer \(token)\r\n" }
        request += "\r\n"
        _ = request.withCString { send(fd, $0, strlen($0), 0) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(fd) }

    /// Waits (bounded) until `condition` holds over what arrived.
    func wait(for what: String, within seconds: Double = 30, _ condition: (EventStreamClient) -> Bool) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            pump()
            if condition(self) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw StreamingTestTimeout(what: what)
    }

    /// Waits (bounded) for an event named `name` whose data satisfies `matching`.
    @discardableResult
    func event(_ name: String, within seconds: Double = 30, matching: (String) -> Bool = { _ in true }) async throws -> Event {
        var found: Event?
        try await wait(for: "\(name) event", within: seconds) { client in
            found = client.events.first { $0.event == name && matching($0.data) }
            return found != nil
        }
        return found!
    }

    private func pump() {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count > 0 { raw += buffer[0..<count]; continue }
            if count == 0 { ended = true }
            break
        }
        parseHead()
        if status != 0 { decodeBody() }
        parseLines()
    }

    private func parseHead() {
        guard status == 0, let end = raw.firstRange(of: Array("\r\n\r\n".utf8)) else { return }
        let lines = String(decoding: raw[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? -1
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        chunked = headers["transfer-encoding"]?.lowercased() == "chunked"
        raw.removeSubrange(..<end.upperBound)
    }

    private func decodeBody() {
        guard chunked else {
            body += raw
            raw.removeAll()
            return
        }
        while let lineEnd = raw.firstRange(of: Array("\r\n".utf8)) {
            let size = Int(String(decoding: raw[..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";").first ?? "", radix: 16) ?? 0
            if size == 0 { ended = true; raw.removeAll(); return }
            guard raw.count >= lineEnd.upperBound + size + 2 else { return }
            body += raw[lineEnd.upperBound..<(lineEnd.upperBound + size)]
            raw.removeSubrange(..<(lineEnd.upperBound + size + 2))
        }
    }

    /// The SSE algorithm: comment lines start with `:`, a blank line dispatches the event.
    private func parseLines() {
        while let newline = body.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: body[..<newline], as: UTF8.self)
            body.removeSubrange(...newline)
            if line.hasPrefix(":") {
                comments.append(String(line.dropFirst()))
            } else if line.isEmpty {
                if !pendingEvent.isEmpty || !pendingData.isEmpty {
                    events.append(Event(event: pendingEvent.isEmpty ? "message" : pendingEvent, data: pendingData.joined(separator: "\n")))
                }
                pendingEvent = ""
                pendingData = []
            } else if line.hasPrefix("event:") {
                pendingEvent = line.dropFirst(6).trimmingCharacters(in: .whitespaces)
            } else if line.hasPrefix("data:") {
                pendingData.append(String(line.dropFirst(5).drop { $0 == " " }))
            }
        }
    }
}

/// A WebSocket streaming client (HummingbirdWSClient) that records every text message and
/// sends what the test queues.
final class SocketStreamClient: Sendable {
    /// What the connection task records.
    private final class Log: Sendable {
        let received = Mutex<[String]>([])
        let outcome = Mutex<(finished: Bool, error: String?)>((false, nil))
    }

    private let log = Log()
    private let outgoing: AsyncStream<String>.Continuation
    private let task: Task<Void, Never>

    /// Connects to `url` (`ws://...`) with `headers` on the upgrade request.
    init(url: String, headers: HTTPFields = [:]) {
        let (messages, continuation) = AsyncStream.makeStream(of: String.self)
        outgoing = continuation
        task = Task { [log] in
            let logger: Logger = {
                var logger = Logger(label: "ws-test-client")
                logger.logLevel = .critical
                return logger
            }()
            do {
                try await WebSocketClient.connect(url: url, configuration: .init(additionalHeaders: headers), logger: logger) { inbound, outbound, _ in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for await text in messages { try await outbound.write(.text(text)) }
                            try await outbound.close(.normalClosure, reason: nil)
                        }
                        group.addTask {
                            for try await message in inbound.messages(maxSize: 1 << 20) {
                                if case .text(let text) = message { log.received.withLock { $0.append(text) } }
                            }
                        }
                        try await group.waitForAll()
                    }
                }
                log.outcome.withLock { $0.finished = true }
            } catch {
                log.outcome.withLock { $0 = (true, "\(error)") }
            }
        }
    }

    /// The connection's end: `nil` while open, the error text (or "") once over.
    var failure: String? { log.outcome.withLock { $0.finished ? ($0.error ?? "") : nil } }

    /// Sends a JSON message.
    func send(_ object: [String: String]) throws {
        outgoing.yield(String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
    }

    /// Every message received so far, parsed.
    var messages: [[String: Any]] {
        log.received.withLock { $0 }.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }

    /// Waits (bounded) for a message satisfying `condition` and returns it.
    @discardableResult
    func message(_ what: String, within seconds: Double = 10, where condition: ([String: Any]) -> Bool) async throws -> [String: Any] {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let found = messages.first(where: condition) { return found }
            if let failure { throw StreamingTestTimeout(what: "\(what) (connection ended: \(failure))") }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw StreamingTestTimeout(what: what)
    }

    /// Waits for an event named `event` whose payload satisfies `condition`.
    @discardableResult
    func event(_ event: String, within seconds: Double = 10, where condition: (String) -> Bool = { _ in true }) async throws -> [String: Any] {
        try await message("\(event) event", within: seconds) { message in
            message["event"] as? String == event && condition(message["payload"] as? String ?? "")
        }
    }

    /// Closes the connection and waits for the client to finish.
    func close() async {
        outgoing.finish()
        await task.value
    }
}

/// A streamed payload parsed as a JSON object.
func payloadObject(_ payload: String) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(payload.utf8))) as? [String: Any] ?? [:]
}
