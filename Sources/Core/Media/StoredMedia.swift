/// An accepted upload whose outputs are on disk.
public struct StoredMedia: Sendable, Equatable {
    /// The container the input was recognised as.
    public let sourceFormat: ImageFormat
    /// The display image (posts) or the avatar/header image.
    public let main: StoredVariant
    /// The post thumbnail; `nil` for avatars and headers.
    public let thumbnail: StoredVariant?

    /// Every stored relative path, for reference tracking and ``MediaStore/sweep(referenced:)``.
    public var paths: [String] {
        [main.file.path] + (thumbnail.map { [$0.file.path] } ?? [])
    }

    /// Creates a description.
    /// - Parameters:
    ///   - sourceFormat: Input container.
    ///   - main: Main output.
    ///   - thumbnail: Thumbnail output, if any.
    public init(sourceFormat: ImageFormat, main: StoredVariant, thumbnail: StoredVariant?) {
        self.sourceFormat = sourceFormat
        self.main = main
        self.thumbnail = thumbnail
    }
}
