#if canImport(Glibc)
import Glibc
#endif

/// Reads procfs files whole. They report a size of 0, and Foundation's file readers stop at
/// the first page of such files, which cuts /proc/PID/smaps short.
enum ProcFile {
    /// The file's text, or `nil` when it cannot be opened.
    static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
