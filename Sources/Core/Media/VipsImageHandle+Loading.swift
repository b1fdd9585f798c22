import CVips
import Foundation

extension VipsImageHandle {
    /// Opens an image with the loader for `format`, reading the header only.
    ///
    /// Pixels are decoded later, by ``decoded()``, so the caller can check the
    /// declared size first. The loader is chosen from the sniffed format rather than by
    /// libvips' own probing, so bytes only ever reach the decoder their magic names.
    /// Truncation is treated as failure (`VIPS_FAIL_ON_TRUNCATED` and above).
    /// - Parameters:
    ///   - buffer: The raw file; must stay valid until the handle and all its
    ///     descendants are gone or ``decoded()`` has been called.
    ///   - format: The sniffed container.
    /// - Returns: A lazily decoded, sequential-access image.
    /// - Throws: `MediaError.notAnImage` when the header cannot be parsed.
    package static func openHeader(_ buffer: UnsafeRawBufferPointer, format: ImageFormat) throws(MediaError) -> VipsImageHandle {
        guard let base = buffer.baseAddress else { throw .notAnImage }
        let bytes = UnsafeMutableRawPointer(mutating: base)
        let loader = loaderFunction(for: format)
        var output: UnsafeMutablePointer<VipsImage>?
        guard loader(bytes, buffer.count, &output, VIPS_FAIL_ON_ERROR) == 0, let output else {
            _ = Vips.takeErrorMessage()
            throw .notAnImage
        }
        return VipsImageHandle(owning: output)
    }

    /// Opens a JPEG's header for decoding at `1/shrink` of its size (DCT scaling, the way
    /// libvips' thumbnailer shrinks on load); the reported width and height are the shrunk ones.
    /// - Parameter shrink: 1, 2, 4 or 8.
    /// - Throws: `MediaError.notAnImage` when the header cannot be parsed.
    package static func openJPEGHeader(_ buffer: UnsafeRawBufferPointer, shrink: Int) throws(MediaError) -> VipsImageHandle {
        guard let base = buffer.baseAddress, [1, 2, 4, 8].contains(shrink) else { throw .notAnImage }
        var output: UnsafeMutablePointer<VipsImage>?
        guard fn_vips_jpegload_buffer_shrink(UnsafeMutableRawPointer(mutating: base), buffer.count, &output, VIPS_FAIL_ON_ERROR,
                                             Int32(shrink)) == 0, let output else {
            _ = Vips.takeErrorMessage()
            throw .notAnImage
        }
        return VipsImageHandle(owning: output)
    }

    /// Whether the EXIF orientation swaps width and height (a quarter turn).
    package var orientationSwapsAxes: Bool { withImage { fn_vips_image_get_orientation_swap($0) } != 0 }

    /// Decodes every pixel of a freshly opened file into memory.
    ///
    /// This is where truncated or corrupt pixel data shows up; afterwards the image no
    /// longer refers to the input buffer.
    /// - Returns: A random-access, in-memory copy.
    /// - Throws: `MediaError.notAnImage` when the pixel data is truncated or corrupt.
    package func decoded() throws(MediaError) -> VipsImageHandle {
        do {
            return try materialised()
        } catch {
            throw .notAnImage
        }
    }

    /// Computes every pixel into memory, surfacing any error a lazy pipeline would hide.
    ///
    /// Used before an image is read more than once: libvips' cache is off, so a lazy
    /// image would be recomputed for each reader.
    /// - Returns: A random-access, in-memory copy.
    /// - Throws: `MediaError.processingFailed` when any step of the pipeline fails.
    package func materialised() throws(MediaError) -> VipsImageHandle {
        guard let copy = withImage({ fn_vips_image_copy_memory($0) }) else {
            throw .processingFailed(Vips.takeErrorMessage())
        }
        return VipsImageHandle(owning: copy)
    }

    private typealias Loader = (
        UnsafeMutableRawPointer?, Int, UnsafeMutablePointer<UnsafeMutablePointer<VipsImage>?>?, VipsFailOn
    ) -> Int32

    private static func loaderFunction(for format: ImageFormat) -> Loader {
        switch format {
        case .jpeg: return fn_vips_jpegload_buffer
        case .png: return fn_vips_pngload_buffer
        case .webp: return fn_vips_webpload_buffer
        case .gif: return fn_vips_gifload_buffer
        case .heic, .avif: return fn_vips_heifload_buffer
        }
    }
}
