import Foundation

/// Content-addressed media files under one root directory.
///
/// A file lives at `<root>/ab/cd/<sha256>.<ext>`, named by the hash of its bytes, so
/// saving the same bytes twice stores them once and the hash doubles as the ETag.
/// Writes go to a temporary file in the target directory and are renamed into place,
/// so a reader never sees a partial file. Only paths of that exact shape are accepted.
public struct MediaStore: Sendable {
    /// The directory holding the shard folders.
    public let root: URL
    /// How old an abandoned temporary file must be before ``sweep(referenced:)`` removes it.
    public let temporaryFileGrace: TimeInterval

    /// Creates a store; the directory is made on first save.
    /// - Parameters:
    ///   - root: Such as `<data>/media`.
    ///   - temporaryFileGrace: Age after which leftover temporary files are swept.
    public init(root: URL, temporaryFileGrace: TimeInterval = 3600) {
        self.root = root
        self.temporaryFileGrace = temporaryFileGrace
    }

    /// Stores bytes under their content hash.
    /// - Parameters:
    ///   - data: The encoded file.
    ///   - fileExtension: `jpg`, `webp`, `png` or `gif`.
    /// - Returns: Where the file is, with its hash and type.
    /// - Throws: `MediaError.storageFailed` when the extension is unknown or the disk fails.
    @discardableResult
    public func save(_ data: Data, fileExtension: String) throws(MediaError) -> StoredFile {
        let hash = SHA256.hexDigest(data)
        guard let stored = StoredPath(sha256: hash, fileExtension: fileExtension) else {
            throw .storageFailed("unknown extension \(fileExtension)")
        }
        let destination = url(for: stored)
        if !FileManager.default.fileExists(atPath: destination.path) {
            try writeAtomically(data, to: destination)
        }
        return describe(stored, byteCount: data.count)
    }

    /// Describes a stored file for serving, if it exists.
    /// - Parameter path: A relative path returned by ``save(_:fileExtension:)``.
    /// - Returns: The file's description, or `nil` when the path is malformed or absent.
    public func file(at path: String) -> StoredFile? {
        guard let stored = StoredPath(path),
              let attributes = try? FileManager.default.attributesOfItem(atPath: url(for: stored).path),
              let size = attributes[.size] as? NSNumber
        else { return nil }
        return describe(stored, byteCount: size.intValue)
    }

    /// The absolute location of a stored file, for streaming it.
    /// - Parameter path: A relative path returned by ``save(_:fileExtension:)``.
    /// - Returns: `nil` when the path is not a store path.
    public func fileURL(for path: String) -> URL? {
        StoredPath(path).map(url(for:))
    }

    /// Reads a stored file.
    /// - Parameter path: A relative path returned by ``save(_:fileExtension:)``.
    /// - Returns: The bytes, or `nil` when the path is malformed or absent.
    public func read(_ path: String) -> Data? {
        guard let location = fileURL(for: path) else { return nil }
        return try? Data(contentsOf: location)
    }

    /// Deletes a stored file; deleting an absent file succeeds.
    /// - Parameter path: A relative path returned by ``save(_:fileExtension:)``.
    /// - Throws: `MediaError.storageFailed` when the path is malformed or removal fails.
    public func delete(_ path: String) throws(MediaError) {
        guard let location = fileURL(for: path) else { throw .storageFailed("not a store path: \(path)") }
        guard FileManager.default.fileExists(atPath: location.path) else { return }
        do {
            try FileManager.default.removeItem(at: location)
        } catch {
            throw .storageFailed("delete \(path): \(error.localizedDescription)")
        }
    }

    /// The absolute location of a parsed store path.
    package func url(for stored: StoredPath) -> URL {
        root.appendingPathComponent(stored.relative, isDirectory: false)
    }

    private func describe(_ stored: StoredPath, byteCount: Int) -> StoredFile {
        StoredFile(path: stored.relative, sha256: stored.sha256, byteCount: byteCount, mimeType: stored.mimeType)
    }

    /// Writes into `<dir>/.<name>.<uuid>.tmp`, then renames over the final name.
    private func writeAtomically(_ data: Data, to destination: URL) throws(MediaError) {
        let directory = destination.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(
            ".\(destination.lastPathComponent).\(UUID().uuidString).tmp", isDirectory: false)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try data.write(to: temporary)
            try FileManager.default.moveItem(at: temporary, to: destination)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            // Another writer may have stored the same bytes first; that is success.
            if FileManager.default.fileExists(atPath: destination.path) { return }
            throw .storageFailed("write \(destination.lastPathComponent): \(error.localizedDescription)")
        }
    }
}
