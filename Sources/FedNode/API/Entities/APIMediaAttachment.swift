import Foundation

/// Mastodon's `MediaAttachment` entity (docs.joinmastodon.org/entities/MediaAttachment).
public struct APIMediaAttachment: Codable, Sendable, Equatable {
    /// Local id.
    public var id: String
    /// image, gifv, video, audio or unknown.
    public var type: String
    /// The display image (local copy).
    @Nullable public var url: String?
    /// The thumbnail.
    @Nullable public var previewUrl: String?
    /// The origin's URL, for remote media.
    @Nullable public var remoteUrl: String?
    /// Deprecated; always `null`.
    @Nullable public var textUrl: String?
    /// Sizes and focal point.
    public var meta: Meta
    /// Alt text.
    @Nullable public var description: String?
    /// BlurHash placeholder.
    @Nullable public var blurhash: String?

    /// `meta`: the display image, the thumbnail and the focal point.
    public struct Meta: Codable, Sendable, Equatable {
        /// The display image's size.
        public var original: Size?
        /// The thumbnail's size.
        public var small: Size?
        /// The focal point.
        public var focus: Focus?
    }

    /// One image size.
    public struct Size: Codable, Sendable, Equatable {
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int
        /// `WIDTHxHEIGHT`.
        public var size: String
        /// width / height.
        public var aspect: Double

        /// A size of `width`×`height`.
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
            self.size = "\(width)x\(height)"
            self.aspect = height > 0 ? Double(width) / Double(height) : 1
        }
    }

    /// A focal point, x and y in -1...1 (y up).
    public struct Focus: Codable, Sendable, Equatable {
        /// Horizontal, -1 left to 1 right.
        public var x: Double
        /// Vertical, -1 bottom to 1 top.
        public var y: Double
    }
}
