#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A child process started with `posix_spawn`, for the tests that run `fednode`, Python or
/// PostgreSQL's tools. Foundation's `Process.run()` crashed the test process under load
/// (SIGSEGV in `memmove` inside `Process.run`, seen in CI even with launches serialised);
/// `posix_spawn` does the launch in the C library, closing the parent's other descriptors in the
/// child and giving it a clean signal mask and default signal handlers.
public final class ChildProcess: @unchecked Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream {
        /// The test process's own.
        case inherit
        /// `/dev/null`.
        case null
        /// A pipe the caller reads or writes (`input`, `output`, `errors`).
        case pipe
        /// A file, created or truncated (both output streams may name the same file: it is
        /// opened once, as with a shell's `>file 2>&1`).
        case file(String)
    }

    /// Why a child could not be started.
    public struct SpawnError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The child's process id.
    public let pid: pid_t
    /// The write end of the child's stdin, when it is a pipe.
    public private(set) var input: Int32?
    /// The read end of the child's stdout, when it is a pipe.
    public private(set) var output: Int32?
    /// The read end of the child's stderr, when it is a pipe.
    public private(set) var errors: Int32?
    private let lock = NSLock()
    private var status: Int32?

    /// Starts `executable` (a path) with `arguments`; `environment` replaces the test process's
    /// when given.
    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                stdin: Stream = .null, stdout: Stream = .inherit, stderr: Stream = .inherit) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var parentEnds: [Int32?] = [nil, nil, nil]
        var childEnds: [Int32] = []
        defer { for fd in childEnds { close(fd) } }
        var sharedFile: (path: String, fd: Int32)?
        for (target, stream) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
            switch stream {
            case .inherit:
                break
            case .null:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            case .pipe:
                var fds: [Int32] = [0, 0]
                guard pipe(&fds) == 0 else { throw SpawnError(description: "pipe: errno \(errno)") }
                for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
                let (childEnd, parentEnd) = target == 0 ? (fds[0], fds[1]) : (fds[1], fds[0])
                posix_spawn_file_actions_adddup2(&actions, childEnd, target)
                childEnds.append(childEnd)
                parentEnds[Int(target)] = parentEnd
            case .file(let path):
                if let shared = sharedFile, shared.path == path {
                    posix_spawn_file_actions_adddup2(&actions, shared.fd, target)
                } else {
                    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
                    guard fd >= 0 else { throw SpawnError(description: "cannot open \(path): errno \(errno)") }
                    childEnds.append(fd)
                    sharedFile = (path, fd)
                    posix_spawn_file_actions_adddup2(&actions, fd, target)
                }
            }
        }
        // Nothing else of the test process (its sockets, its database files) leaks into the child
        // (glibc 2.34 and later; Swift's Glibc module does not declare it).
        if let closeFrom = Self.addCloseFrom { _ = closeFrom(&actions, 3) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let environmentPairs = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        let envp = environmentPairs.map { strdup($0) } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            for fd in parentEnds.compactMap({ $0 }) { close(fd) }
            throw SpawnError(description: "cannot start \(executable): \(String(cString: strerror(result)))")
        }
        pid = child
        input = parentEnds[0]
        output = parentEnds[1]
        errors = parentEnds[2]
    }

    deinit {
        for fd in [input, output, errors].compactMap({ $0 }) { close(fd) }
    }

    /// Writes `data` to the child's stdin and closes it.
    public func send(_ data: Data) {
        guard let fd = input else { return }
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 { if errno == EINTR { continue }; break }
                offset += written
            }
        }
        close(fd)
        input = nil
    }

    /// Reads the child's stdout and stderr pipes to their ends (both at once, so a child
    /// filling one while the other is read never blocks).
    public func readOutputs() -> (stdout: Data, stderr: Data) {
        var collected: [Int32: Data] = [:]
        var open = [output, errors].compactMap { $0 }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty {
            var polls = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&polls, nfds_t(polls.count), -1)
            if ready < 0 { if errno == EINTR { continue }; break }
            for p in polls where p.revents != 0 {
                let count = read(p.fd, &buffer, buffer.count)
                if count > 0 {
                    collected[p.fd, default: Data()].append(contentsOf: buffer[0..<count])
                } else if count == 0 || errno != EINTR {
                    open.removeAll { $0 == p.fd }
                }
            }
        }
        return (output.flatMap { collected[$0] } ?? Data(), errors.flatMap { collected[$0] } ?? Data())
    }

    /// Whether the child has not exited yet.
    public var isRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        if status != nil { return false }
        var raw: Int32 = 0
        let waited = waitpid(pid, &raw, WNOHANG)
        if waited == pid { status = Self.decode(raw); return false }
        return waited == 0
    }

    /// Waits for the child to exit. - Returns: Its exit code, or 128 + the signal that ended it.
    @discardableResult
    public func waitForExit() -> Int32 {
        lock.lock()
        defer { lock.unlock() }
        if let status { return status }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        let decoded = Self.decode(raw)
        status = decoded
        return decoded
    }

    /// Sends `signal` to the child, if it is still running.
    public func signal(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Sends SIGTERM.
    public func terminate() { signal(SIGTERM) }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let addCloseFrom: AddCloseFrom? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)
    }()

    private static func decode(_ raw: Int32) -> Int32 {
        let signal = raw & 0x7f
        return signal == 0 ? (raw >> 8) & 0xff : 128 + signal
    }

    /// Runs `executable` to its end, feeding `input` on stdin.
    /// - Returns: Its exit status (see `waitForExit`) and everything it printed.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                           input: Data = Data()) throws -> (status: Int32, stdout: String, stderr: String) {
        let child = try ChildProcess(executable, arguments, environment: environment, stdin: .pipe, stdout: .pipe, stderr: .pipe)
        child.send(input)
        let (out, err) = child.readOutputs()
        let status = child.waitForExit()
        return (status, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    /// The full path of `command` on `PATH` (as a shell finds it).
    public static func which(_ command: String) -> String? {
        if command.contains("/") { return command }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(command)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
