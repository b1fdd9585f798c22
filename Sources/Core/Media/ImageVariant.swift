import Foundation

/// One encoded output of an upload, ready to store and describe in the API.
public struct ImageVariant: Sendable, Equatable {
    /// The encoded file: a progressive JPEG, or a WebP when the image has transparency.
    public let data: Data
    /// `image/jpeg` or `image/webp`.
    public let mimeType: String
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// A BlurHash placeholder (woltapp/blurhash) of this output.
    public let blurhash: String

    /// Width divided by height, as Mastodon's `meta.*.aspect`.
    public var aspect: Double {
        Double(width) / Double(height)
    }

    /// The file name extension for ``mimeType``, without a dot.
    public var fileExtension: String {
        mimeType == "image/webp" ? "webp" : "jpg"
    }

    /// Creates a variant.
    /// - Parameters:
    ///   - data: Encoded bytes.
    ///   - mimeType: Their media type.
    ///   - width: Pixel width.
    ///   - height: Pixel height.
    ///   - blurhash: Placeholder hash.
    public init(data: Data, mimeType: String, width: Int, height: Int, blurhash: String) {
        self.data = data
        self.mimeType = mimeType
        self.width = width
        self.height = height
        self.blurhash = blurhash
    }
}
