#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// An advisory lock on a node's SQLite database (`fednode.sqlite.lock` beside it), held by
/// `fednode serve` for as long as it runs and by `fednode restore` while it replaces the file:
/// a restore never swaps the database under a running node, and two nodes never serve one
/// file. The kernel releases it when the process ends, however it ends.
public final class DatabaseLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock for the database at `databasePath`, without waiting.
    /// - Throws: `NodeError.configuration` when another process holds it or the lock file
    ///   cannot be created.
    public init(databasePath: String) throws(NodeError) {
        let path = databasePath + ".lock"
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .configuration("cannot create \(path): errno \(errno)") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw .configuration("another fednode process is using \(databasePath) (it holds \(path)); stop it first")
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}
