import Foundation
import Signatures

/// A stored upload: where its bytes are and what they are.
public struct StoredUpload: Sendable, Equatable {
    /// Hex SHA-256 of the bytes (the file's name, and its HTTP `ETag`).
    public var sha256: String
    /// Path relative to the media directory (`ab/<sha256>.jpg`), as `MediaAttachment.filePath` keeps it.
    public var path: String
    /// MIME type, from the bytes.
    public var contentType: String
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Size in bytes.
    public var fileSize: Int
}

/// The one place uploaded images are checked, processed and written. Today it sniffs the type
/// and size from the header bytes and stores the original; the libvips pipeline (resizing,
/// thumbnails around the focal point, blurhash, EXIF stripping) replaces the inside of
/// `store(_:focus:)` without its callers changing.
///
/// Files are content-addressed under `<dataDirectory>/media/<ab>/<sha256>.<ext>`, written to a
/// temporary file and renamed into place, so a reader never sees half a file and the same
/// photo uploaded twice is stored once.
public struct UploadStore: Sendable {
    /// The media directory (`<dataDirectory>/media`).
    public let directory: String
    /// Largest upload accepted (Mastodon's image limit).
    public static let maxBytes = 16 * 1024 * 1024

    /// A store writing under `directory`.
    public init(directory: String) { self.directory = directory }

    /// Checks and stores an uploaded image.
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - focus: The focal point (x, y in -1...1), for the thumbnailer to come.
    /// - Returns: Where it went and what it is.
    /// - Throws: `NodeError.validation` (422) for an empty, oversized, unknown or truncated
    ///   image, with nothing written; `.internal` when the disk fails.
    public func store(_ data: Data, focus: APIMediaAttachment.Focus?) async throws(NodeError) -> StoredUpload {
        guard !data.isEmpty else { throw .validation("Validation failed: File can't be blank") }
        guard data.count <= Self.maxBytes else { throw .validation("Validation failed: File file size must be less than 16 MB") }
        guard let image = ImageProbe.probe(data) else {
            throw .validation(ImageProbe.format(of: ImageHeaderBytes(data)) == nil
                ? "Validation failed: File content type is invalid" : "File type of uploaded media could not be verified")
        }
        let directory = directory
        let result: Result<StoredUpload, NodeError> = await Self.offloaded {
            let hash = Digest.sha256(Array(data)).map { String(format: "%02x", $0) }.joined()
            let relative = "\(hash.prefix(2))/\(hash).\(image.format.fileExtension)"
            do { try Self.write(data, to: (directory as NSString).appendingPathComponent(relative)) } catch {
                return .failure(.internal("storing upload \(relative): \(error)"))
            }
            return .success(StoredUpload(sha256: hash, path: relative, contentType: image.format.mimeType,
                                         width: image.width, height: image.height, fileSize: data.count))
        }
        return try result.get()
    }

    /// The absolute path of a stored file, or `nil` when `components` could leave the media
    /// directory (`..`, `.`, empty, separators or NUL inside a component) or name no regular file.
    public func file(at components: [String]) -> String? {
        guard !components.isEmpty, components.allSatisfy(Self.isSafeComponent) else { return nil }
        let root = URL(fileURLWithPath: directory).standardizedFileURL.resolvingSymlinksInPath().path
        let path = URL(fileURLWithPath: (root as NSString).appendingPathComponent(components.joined(separator: "/")))
            .standardizedFileURL.resolvingSymlinksInPath().path
        var isDirectory: ObjCBool = false
        guard path.hasPrefix(root + "/"), FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
        else { return nil }
        return path
    }

    private static func isSafeComponent(_ component: String) -> Bool {
        !component.isEmpty && component != "." && component != ".."
            && !component.contains("/") && !component.contains("\\") && !component.contains("\0")
    }

    /// Writes `data` to `path` through a temporary file in the same directory and a rename
    /// (POSIX rename(2) replaces atomically); an existing file with that name is the same bytes.
    private static func write(_ data: Data, to path: String) throws {
        let manager = FileManager.default
        if manager.fileExists(atPath: path) { return }
        let folder = (path as NSString).deletingLastPathComponent
        try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let temporary = (folder as NSString).appendingPathComponent(".upload-\(UUID().uuidString).tmp")
        try data.write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else {
            let code = errno
            try? manager.removeItem(atPath: temporary)
            throw NodeError.internal("rename failed with errno \(code)")
        }
    }

    /// Runs blocking file work on a dispatch queue, off the server's threads.
    private static func offloaded<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: work()) }
        }
    }
}

extension Node {
    /// Uploaded media storage under `<dataDirectory>/media`.
    public var uploadStore: UploadStore {
        UploadStore(directory: (configuration.dataDirectory as NSString).appendingPathComponent("media"))
    }
}
