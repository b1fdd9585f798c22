import CVips
import Foundation

extension VipsImageHandle {
    /// Encodes as a progressive JPEG with every metadata block stripped.
    /// - Parameter quality: libjpeg quality, 1-100.
    /// - Returns: The file bytes.
    /// - Throws: `MediaError.processingFailed` when encoding fails.
    package func jpegData(quality: Int) throws(MediaError) -> Data {
        try encoded { fn_vips_jpegsave_buffer($0, $1, $2, Int32(quality), 1, 1) }
    }

    /// Encodes as a lossy WebP, alpha included, with every metadata block stripped.
    /// - Parameter quality: libwebp quality, 1-100.
    /// - Returns: The file bytes.
    /// - Throws: `MediaError.processingFailed` when encoding fails.
    package func webpData(quality: Int) throws(MediaError) -> Data {
        try encoded { fn_vips_webpsave_buffer($0, $1, $2, Int32(quality), 1) }
    }
}
