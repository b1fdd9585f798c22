import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`, with every signal unblocked and at its default
/// action. Foundation's `Process` hands the child the spawning thread's signal mask, and the
/// Swift runtime's threads block SIGALRM and SIGTERM, so `openssl speed` (timed by SIGALRM)
/// would never stop and a server could not be asked to stop.
final class Subprocess: @unchecked Sendable {
    /// The child's process id.
    let pid: pid_t
    // Touched only by the thread that drives the benchmark.
    private var exitStatus: Int32?

    /// Starts `arguments[0]` (looked up in `PATH`) with standard input from /dev/null and
    /// standard output and error appended to `outputPath` (or discarded).
    /// - Throws: `BenchError.system` when the child cannot be spawned.
    init(_ arguments: [String], outputPath: String? = nil) throws(BenchError) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ)
        guard result == 0 else { throw .system("posix_spawn \(arguments[0])", result) }
        self.pid = pid
    }

    /// Whether the child is still running (reaps it when it has exited).
    var isRunning: Bool {
        guard exitStatus == nil else { return false }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return true }
        exitStatus = status
        return false
    }

    /// Sends `signal` to the child.
    func send(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Waits for the child to exit.
    /// - Returns: Its exit code (128 + signal number when a signal ended it).
    @discardableResult
    func wait() -> Int32 {
        if exitStatus == nil {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            exitStatus = status
        }
        let status = exitStatus ?? 0
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// Runs `arguments` to completion.
    /// - Returns: The exit code and everything the command printed.
    static func output(of arguments: [String], scratch: String) throws(BenchError) -> (code: Int32, output: String) {
        unlink(scratch)
        let child = try Subprocess(arguments, outputPath: scratch)
        let code = child.wait()
        let text = (try? String(contentsOfFile: scratch, encoding: .utf8)) ?? ""
        unlink(scratch)
        return (code, text)
    }
}
