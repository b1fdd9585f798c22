#if canImport(Glibc)
import Glibc
#endif

/// Why a benchmark could not run or finish. Every case says what to look at.
public enum BenchError: Error, Sendable, CustomStringConvertible {
    /// A system call failed; the call's name and `errno`.
    case system(String, Int32)
    /// The server under test did not start, stopped early or answered wrongly.
    case server(String)
    /// A phase did not finish in its time bound.
    case timedOut(String)
    /// Generated data or a reference measurement could not be produced.
    case setup(String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        case .server(let message): "server under test: \(message)"
        case .timedOut(let what): "timed out: \(what)"
        case .setup(let message): "setup: \(message)"
        }
    }
}
