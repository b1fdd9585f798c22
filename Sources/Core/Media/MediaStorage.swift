import Foundation

/// Where a node keeps its photos' files, content-addressed by SHA-256 (`ab/cd/<hash>.<ext>`,
/// `StoredPath`). Everything that saves, reads, deletes or sweeps media goes through it.
///
/// `MediaStore` keeps the files in a directory, `<data-dir>/media`. Every process of a node
/// uses the same one: a local directory when the processes share a machine, a shared
/// filesystem (NFS, CephFS…) mounted at the same path when they do not. An object store (S3
/// and alike) can implement this protocol instead: content addressing makes saves idempotent
/// and files immutable, so it needs no coordination between processes.
public protocol MediaStorage: Sendable {
    /// Stores bytes under their content hash (again: a no-op).
    /// - Returns: Where the file is, with its hash and type.
    /// - Throws: `MediaError.storageFailed` when the extension is unknown or the storage fails.
    @discardableResult
    func save(_ data: Data, fileExtension: String) throws(MediaError) -> StoredFile

    /// Describes a stored file, if it exists.
    func file(at path: String) -> StoredFile?

    /// Reads a stored file; `nil` when the path is malformed or absent.
    func read(_ path: String) -> Data?

    /// A local file holding the stored file, for streaming it (a directory has one; a
    /// remote storage would fetch it to a cache); `nil` when the path is malformed or absent.
    func localFile(for path: String) -> URL?

    /// Deletes a stored file; deleting an absent one succeeds.
    func delete(_ path: String) throws(MediaError)

    /// Deletes every stored file that is not in `referenced` and older than `minimumAge`.
    /// - Returns: The paths removed.
    @discardableResult
    func sweep(referenced: Set<String>, minimumAge: TimeInterval) throws(MediaError) -> [String]
}

extension MediaStore: MediaStorage {
    public func localFile(for path: String) -> URL? {
        guard let url = fileURL(for: path), FileManager.default.fileExists(atPath: url.path) else { return nil }
        return url
    }
}

extension Node {
    /// The node's media files: the `media` directory of its data directory, shared by every
    /// process serving the node.
    public var mediaStorage: any MediaStorage {
        MediaStore(root: URL(fileURLWithPath: configuration.dataDirectory).appendingPathComponent("media"))
    }
}
