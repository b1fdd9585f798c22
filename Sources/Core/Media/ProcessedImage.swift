/// Everything made from one accepted upload.
public struct ProcessedImage: Sendable, Equatable {
    /// The container the input was recognised as.
    public let sourceFormat: ImageFormat
    /// The input size after EXIF rotation, in pixels.
    public let sourceWidth: Int
    /// The input height after EXIF rotation, in pixels.
    public let sourceHeight: Int
    /// The display copy for posts; the avatar or header image itself otherwise.
    public let main: ImageVariant
    /// The 500 x 500 preview for posts; `nil` for avatars and headers.
    public let thumbnail: ImageVariant?

    /// Creates a result.
    /// - Parameters:
    ///   - sourceFormat: Recognised input container.
    ///   - sourceWidth: Upright input width.
    ///   - sourceHeight: Upright input height.
    ///   - main: Main output.
    ///   - thumbnail: Thumbnail output, if the kind has one.
    public init(
        sourceFormat: ImageFormat, sourceWidth: Int, sourceHeight: Int,
        main: ImageVariant, thumbnail: ImageVariant?
    ) {
        self.sourceFormat = sourceFormat
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.main = main
        self.thumbnail = thumbnail
    }
}
