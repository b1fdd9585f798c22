import Foundation

/// Processes an upload and stores its outputs: the one call an upload route needs.
///
/// Nothing is written unless processing succeeded, so a refused input leaves no file.
/// If the disk fails between the two writes, the first file stays behind unreferenced
/// until ``MediaStore/sweep(referenced:)`` removes it; it is not deleted here because
/// identical bytes may already belong to another upload.
public struct MediaIngestor: Sendable {
    /// Makes the outputs.
    public let processor: MediaProcessor
    /// Keeps the outputs.
    public let store: any MediaStorage

    /// Creates an ingestor.
    /// - Parameters:
    ///   - processor: The shared image processor.
    ///   - store: The media directory.
    public init(processor: MediaProcessor, store: any MediaStorage) {
        self.processor = processor
        self.store = store
    }

    /// Validates, processes and stores an upload.
    /// - Parameters:
    ///   - data: The raw upload.
    ///   - kind: What it is for.
    ///   - focus: The point crops keep in view.
    /// - Returns: The stored outputs.
    /// - Throws: `MediaError` from processing, or `.storageFailed`.
    public func ingest(_ data: Data, kind: MediaKind, focus: FocalPoint? = nil) async throws(MediaError) -> StoredMedia {
        let processed = try await processor.process(data, kind: kind, focus: focus)
        let main = try save(processed.main)
        let thumbnail = try processed.thumbnail.map { variant throws(MediaError) in try save(variant) }
        return StoredMedia(sourceFormat: processed.sourceFormat, main: main, thumbnail: thumbnail)
    }

    private func save(_ variant: ImageVariant) throws(MediaError) -> StoredVariant {
        let file = try store.save(variant.data, fileExtension: variant.fileExtension)
        return StoredVariant(file: file, width: variant.width, height: variant.height, blurhash: variant.blurhash)
    }
}
