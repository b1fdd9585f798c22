import CVips
import Foundation

extension VipsImageHandle {
    /// The image averaged down to `width` x `height` (``AreaAverage``) as packed RGB, 3 bytes
    /// per pixel, computing it into memory first if it is not there yet.
    /// - Returns: The pixels, or `nil` when the image is not plain 3-band 8-bit without
    ///   alpha, or the size is larger than the image's.
    /// - Throws: `MediaError.processingFailed` when libvips cannot produce the pixels.
    package func areaAveragedRGB(width: Int, height: Int) throws(MediaError) -> [UInt8]? {
        guard bands == 3, !hasAlpha, bandFormat == VIPS_FORMAT_UCHAR,
              withImage({ fn_vips_image_get_coding($0) }) == VIPS_CODING_NONE,
              (1...self.width).contains(width), (1...self.height).contains(height)
        else { return nil }
        // `self`, and so the pixels, stay alive until this method returns.
        guard let pixels = withImage({ fn_vips_image_pixels($0) }) else {
            throw .processingFailed(Vips.takeErrorMessage())
        }
        return AreaAverage.reduce(pixels, width: self.width, height: self.height, bands: 3, toWidth: width, height: height)
    }
}
