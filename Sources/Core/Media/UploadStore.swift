import Foundation

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
    /// The thumbnail's path relative to the media directory.
    public var thumbnailPath: String?
    /// Thumbnail width in pixels.
    public var thumbnailWidth: Int?
    /// Thumbnail height in pixels.
    public var thumbnailHeight: Int?
    /// BlurHash of the display image.
    public var blurhash: String?
}

/// The one place uploaded images are checked, processed and written, through the libvips
/// pipeline (`MediaIngestor`): the type from the bytes, limits checked from the header before
/// decoding, EXIF orientation applied and all metadata stripped, a display image of at most
/// 1920 px, a 500×500 thumbnail around the focal point, blurhash. Refused input leaves nothing.
///
/// Files are content-addressed under `<dataDirectory>/media/<ab>/<cd>/<sha256>.<ext>`, written
/// to a temporary file and renamed into place, so a reader never sees half a file and the same
/// photo uploaded twice is stored once.
public struct UploadStore: Sendable {
    /// The media directory (`<dataDirectory>/media`).
    public let directory: String
    /// The node's image processor (bounded concurrency).
    package let processor: MediaProcessor
    /// Largest upload accepted (Mastodon's image limit).
    public static let maxBytes = 16 * 1024 * 1024

    /// Where the processed files go (`MediaStorage`).
    package let storage: any MediaStorage

    /// A store writing under `directory`, processing with `processor`.
    package init(directory: String, processor: MediaProcessor) {
        self.directory = directory
        self.processor = processor
        self.storage = MediaStore(root: URL(fileURLWithPath: directory))
    }

    /// Checks, processes and stores an uploaded photo.
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - focus: The focal point (x, y in -1...1) the thumbnail keeps in view.
    /// - Returns: Where the display image and thumbnail went and what they are.
    /// - Throws: `NodeError.validation` (422) for an empty, oversized, unknown, truncated or
    ///   too-many-pixels image, with nothing written; `.internal` when processing or the disk fails.
    public func store(_ data: Data, focus: FocalPoint?) async throws(NodeError) -> StoredUpload {
        guard !data.isEmpty else { throw .validation("Validation failed: File can't be blank") }
        let stored = try await ingest(data, kind: .post, focus: focus)
        return StoredUpload(sha256: stored.main.file.sha256, path: stored.main.file.path, contentType: stored.main.file.mimeType,
                            width: stored.main.width, height: stored.main.height, fileSize: stored.main.file.byteCount,
                            thumbnailPath: stored.thumbnail?.file.path, thumbnailWidth: stored.thumbnail?.width,
                            thumbnailHeight: stored.thumbnail?.height, blurhash: stored.main.blurhash)
    }

    /// Processes and stores an avatar (400×400) or a cover (1500×500).
    /// - Returns: The stored image's path relative to the media directory.
    public func storeProfileImage(_ data: Data, kind: MediaKind) async throws(NodeError) -> String {
        try await ingest(data, kind: kind, focus: nil).main.file.path
    }

    private func ingest(_ data: Data, kind: MediaKind, focus: FocalPoint?) async throws(NodeError) -> StoredMedia {
        let ingestor = MediaIngestor(processor: processor, store: storage)
        do { return try await ingestor.ingest(data, kind: kind, focus: focus) } catch {
            throw error.isInvalidInput ? .validation("Validation failed: \(error.message)") : .internal("media: \(error)")
        }
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
}

extension Node {
    /// Uploaded media storage under `<dataDirectory>/media`.
    public var uploadStore: UploadStore {
        UploadStore(directory: (configuration.dataDirectory as NSString).appendingPathComponent("media"), processor: mediaProcessor)
    }
}
