/// Input limits and output settings for image processing.
public struct MediaLimits: Sendable, Equatable {
    /// Largest accepted input, in bytes. Default 16 MiB.
    public var maxBytes: Int
    /// Largest accepted width x height, read from the header before decoding. Default 40 MP.
    public var maxPixels: Int
    /// Encoder quality for JPEG and WebP outputs, 1-100. Default 85.
    public var quality: Int

    /// Creates limits; every argument has the production default.
    /// - Parameters:
    ///   - maxBytes: Largest accepted input in bytes.
    ///   - maxPixels: Largest accepted pixel count.
    ///   - quality: Output encoder quality.
    public init(maxBytes: Int = 16 * 1024 * 1024, maxPixels: Int = 40_000_000, quality: Int = 85) {
        self.maxBytes = maxBytes
        self.maxPixels = maxPixels
        self.quality = quality
    }

    /// Refuses a declared size above ``maxPixels``.
    /// - Parameters:
    ///   - width: Width from the image header.
    ///   - height: Height from the image header.
    /// - Throws: `MediaError.tooManyPixels` when the image is too large.
    package func checkDimensions(width: Int, height: Int) throws(MediaError) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard width > 0, height > 0, !overflow, pixels <= maxPixels else {
            throw .tooManyPixels(width: width, height: height)
        }
    }
}
