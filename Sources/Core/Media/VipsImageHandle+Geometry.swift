import CVips
import Foundation

extension VipsImageHandle {
    /// Resizes to exactly `width` x `height` with a Lanczos3 kernel.
    ///
    /// Alpha is premultiplied around the resize so transparent pixels do not bleed
    /// their hidden colour into the edges.
    /// - Parameters:
    ///   - width: Target width in pixels.
    ///   - height: Target height in pixels.
    /// - Returns: The resized image, or the image itself when the size already matches.
    /// - Throws: `MediaError.processingFailed` when libvips fails.
    package func resized(width: Int, height: Int) throws(MediaError) -> VipsImageHandle {
        guard width != self.width || height != self.height else { return self }
        let hscale = Double(width) / Double(self.width)
        let vscale = Double(height) / Double(self.height)
        guard hasAlpha else {
            return try derive { fn_vips_resize($0, $1, hscale, vscale) }
        }
        return try derive { fn_vips_premultiply($0, $1) }
            .derive { fn_vips_resize($0, $1, hscale, vscale) }
            .derive { fn_vips_unpremultiply($0, $1) }
            .derive { fn_vips_cast($0, $1, VIPS_FORMAT_UCHAR) }
    }

    /// Cuts out a rectangle, clamped to the image.
    /// - Parameter rect: The area to keep, in pixels of this image.
    /// - Returns: The cropped image, or the image itself when the rectangle covers it.
    /// - Throws: `MediaError.processingFailed` when libvips fails.
    package func cropped(to rect: PixelRect) throws(MediaError) -> VipsImageHandle {
        let left = min(max(rect.x, 0), width - 1)
        let top = min(max(rect.y, 0), height - 1)
        let cropWidth = min(rect.width, width - left)
        let cropHeight = min(rect.height, height - top)
        guard left != 0 || top != 0 || cropWidth != width || cropHeight != height else { return self }
        return try derive {
            fn_vips_extract_area($0, $1, Int32(left), Int32(top), Int32(cropWidth), Int32(cropHeight))
        }
    }

    /// Renders the image as packed 8-bit RGB, 3 bytes per pixel, rows top to bottom.
    /// - Returns: `width * height * 3` bytes.
    /// - Throws: `MediaError.processingFailed` when libvips fails.
    package func rgbPixels() throws(MediaError) -> [UInt8] {
        let flat = try flattenedOnWhite()
        let rgb = flat.bands == 3 ? flat : try flat.derive { fn_vips_extract_band($0, $1, 0, 3) }
        var size = 0
        guard let memory = rgb.withImage({ fn_vips_image_write_to_memory($0, &size) }) else {
            throw .processingFailed(Vips.takeErrorMessage())
        }
        defer { fn_g_free(memory) }
        return [UInt8](UnsafeRawBufferPointer(start: memory, count: size))
    }
}
