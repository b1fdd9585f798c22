/// One output of an upload after it has been written to a ``MediaStore``.
public struct StoredVariant: Sendable, Equatable {
    /// Where the bytes are, with hash, size and type.
    public let file: StoredFile
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// BlurHash placeholder.
    public let blurhash: String

    /// Width divided by height.
    public var aspect: Double {
        Double(width) / Double(height)
    }

    /// Creates a description.
    /// - Parameters:
    ///   - file: The stored file.
    ///   - width: Pixel width.
    ///   - height: Pixel height.
    ///   - blurhash: Placeholder hash.
    public init(file: StoredFile, width: Int, height: Int, blurhash: String) {
        self.file = file
        self.width = width
        self.height = height
        self.blurhash = blurhash
    }
}
