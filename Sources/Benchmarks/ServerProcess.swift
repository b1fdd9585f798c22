import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A `fednode serve` process under test. It runs apart from the benchmark process, so its
/// memory figures are its own and the load generator does not share its heap.
public final class ServerProcess: @unchecked Sendable {
    /// The port it listens on (127.0.0.1).
    public let port: Int
    /// Where its standard output and error go.
    public let logPath: String
    /// Seconds from spawning it to its first `200` on `/healthz`, once `waitUntilServing` saw it.
    public private(set) var startSeconds: Double?
    private let process: Subprocess
    private let spawnedAt: UInt64

    /// Spawns `binary serve --port PORT --data-dir DIR` plus `arguments`.
    /// - Throws: `BenchError.server` when it cannot be spawned.
    public init(binary: String, dataDirectory: String, arguments: [String] = [], logPath: String) throws(BenchError) {
        do { port = try LoopbackSocket.freePort() } catch { throw .server("no free port: \(error)") }
        self.logPath = logPath
        spawnedAt = MonotonicClock.now()
        let command = [binary, "serve", "--host", "127.0.0.1", "--port", "\(port)", "--data-dir", dataDirectory] + arguments
        do { process = try Subprocess(command, outputPath: logPath) } catch { throw .server("cannot spawn \(binary): \(error)") }
    }

    /// The process id.
    public var pid: Int32 { process.pid }

    /// Polls `/healthz` every 2 ms until it answers 200.
    /// - Returns: Seconds from spawn to that answer.
    /// - Throws: `BenchError.server` when the process exits or does not answer within `limit`.
    @discardableResult
    public func waitUntilServing(limit: Double = 60) throws(BenchError) -> Double {
        let deadline = spawnedAt + UInt64(limit * 1e9)
        while MonotonicClock.now() < deadline {
            if HTTPProbe.status(port: port, path: "/healthz") == 200 {
                let seconds = MonotonicClock.seconds(from: spawnedAt, to: MonotonicClock.now())
                startSeconds = seconds
                return seconds
            }
            guard process.isRunning else { throw .server("exited with \(process.wait()); log: \(logTail())") }
            usleep(2000)
        }
        throw .server("no 200 on /healthz within \(Int(limit)) s; log: \(logTail())")
    }

    /// Resident memory now and at its peak (`VmRSS`, `VmHWM` of /proc/PID/status), in bytes.
    public func memory() -> (resident: Int, peak: Int) {
        ProcessMemory.read(pid: pid)
    }

    /// Starts a new peak: `VmHWM` then counts from the current RSS (so a part's peak is not the
    /// start-up's). Returns the peak so far.
    @discardableResult
    public func resetPeak() -> Int {
        let peak = memory().peak
        try? "5".write(toFile: "/proc/\(pid)/clear_refs", atomically: false, encoding: .utf8)
        return peak
    }

    /// Where its resident memory is now (see `ProcessMemory.breakdown`).
    public func memoryBreakdown() -> String {
        ProcessMemory.breakdown(pid: pid)
    }

    /// Sends SIGTERM, waits up to 10 s for a graceful exit, then SIGKILL.
    public func stop() {
        guard process.isRunning else { return }
        process.send(SIGTERM)
        let deadline = MonotonicClock.now() + 10_000_000_000
        while process.isRunning, MonotonicClock.now() < deadline { usleep(5_000) }
        if process.isRunning {
            process.send(SIGKILL)
            process.wait()
        }
    }

    /// The last lines of the server's log, for error messages.
    public func logTail(lines: Int = 8) -> String {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(lines).joined(separator: " | ")
    }
}

/// Reads a process's memory figures from procfs.
enum ProcessMemory {
    /// `VmRSS` and `VmHWM` in bytes (0 when unreadable).
    static func read(pid: Int32) -> (resident: Int, peak: Int) {
        guard let status = ProcFile.read("/proc/\(pid)/status") else { return (0, 0) }
        func field(_ name: String) -> Int {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
            return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
        }
        return (field("VmRSS"), field("VmHWM"))
    }

    /// Where a process's resident memory is: anonymous (heap, stacks) against file-backed
    /// (code and data of the executable and libraries, shared with other processes), the
    /// proportional share, and the largest mappings.
    static func breakdown(pid: Int32, top: Int = 6) -> String {
        guard let smaps = ProcFile.read("/proc/\(pid)/smaps") else { return "unreadable" }
        var byMapping: [String: Int] = [:]
        var anonymous = 0, proportional = 0
        var current = "[anonymous]"
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), fields.count >= 5 {
                current = fields.count >= 6 ? String(fields[5].split(separator: "/").last ?? fields[5]) : "[anonymous]"
            } else if fields.count >= 2, let kilobytes = Int(fields[1]) {
                switch fields[0] {
                case "Rss:": byMapping[current, default: 0] += kilobytes
                case "Anonymous:": anonymous += kilobytes
                case "Pss:": proportional += kilobytes
                default: break
                }
            }
        }
        let total = byMapping.values.reduce(0, +)
        let largest = byMapping.sorted { $0.value > $1.value }.prefix(top).map { "\($0.key) \(Format.mb($0.value * 1024))" }
        return "anonymous \(Format.mb(anonymous * 1024)), file-backed \(Format.mb((total - anonymous) * 1024)), "
            + "PSS \(Format.mb(proportional * 1024)); largest: \(largest.joined(separator: ", "))"
    }
}

/// One blocking HTTP/1.1 request on a fresh connection, for readiness checks and one-off
/// questions (does this route exist?).
enum HTTPProbe {
    /// The status of `GET path`, or `nil` when nothing answered.
    static func status(port: Int, path: String, headers: [String] = []) -> Int? {
        guard let fd = try? LoopbackSocket.connect(port: port) else { return nil }
        defer { close(fd) }
        LoopbackSocket.setTimeout(fd, seconds: 5)
        let request = (["GET \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Connection: close"] + headers)
            .joined(separator: "\r\n") + "\r\n\r\n"
        guard LoopbackSocket.writeAll(fd, Array(request.utf8)) else { return nil }
        var buffer: [UInt8] = []
        var scratch = [UInt8](repeating: 0, count: 16384)
        while true {
            if let head = HTTPFraming.head(in: buffer) { return head.status }
            let count = scratch.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            guard count > 0 else { return nil }
            buffer.append(contentsOf: scratch[0..<count])
        }
    }
}
