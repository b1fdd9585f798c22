@testable import Core
import CVips
import Foundation

@testable import FedNode

/// Builds and inspects images with libvips inside the tests; no binary fixtures.
enum TestImages {
    /// An 8-bit image whose pixels come from `pixel(x, y)`, `bands` bytes each.
    static func make(width: Int, height: Int, bands: Int = 3, pixel: (Int, Int) -> [UInt8]) throws -> VipsImageHandle {
        try fromBytes(width: width, height: height, bands: bands) { bytes in
            var index = 0
            for y in 0..<height {
                for x in 0..<width {
                    for value in pixel(x, y) {
                        bytes[index] = value
                        index += 1
                    }
                }
            }
        }
    }

    /// An 8-bit image from a buffer of `width * height * bands` bytes that `fill` writes.
    static func fromBytes(
        width: Int, height: Int, bands: Int, fill: (inout UnsafeMutableBufferPointer<UInt8>) -> Void
    ) throws -> VipsImageHandle {
        try Vips.start()
        let count = width * height * bands
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialised in
            buffer.initialize(repeating: 0)
            fill(&buffer)
            initialised = count
        }
        let image = bytes.withUnsafeBytes { raw in
            fn_vips_image_new_from_memory_copy(raw.baseAddress, raw.count, Int32(width), Int32(height), Int32(bands), VIPS_FORMAT_UCHAR)
        }
        guard let image else { throw MediaError.processingFailed(Vips.takeErrorMessage()) }
        return VipsImageHandle(owning: image)
    }

    /// A smooth gradient, cheap to build and encode at any size.
    static func gradient(width: Int, height: Int) throws -> VipsImageHandle {
        try fromBytes(width: width, height: height, bands: 3) { bytes in
            let row = (0..<width).map { UInt8($0 * 255 / max(width - 1, 1)) }
            for y in 0..<height {
                let green = UInt8(y * 255 / max(height - 1, 1))
                var index = y * width * 3
                for x in 0..<width {
                    bytes[index] = row[x]
                    bytes[index + 1] = green
                    bytes[index + 2] = 128
                    index += 3
                }
            }
        }
    }

    /// Deterministic noise (a linear congruential generator), which compresses badly.
    static func noise(width: Int, height: Int) throws -> VipsImageHandle {
        var state: UInt32 = 12345
        return try make(width: width, height: height) { _, _ in
            (0..<3).map { _ in
                state = state &* 1_664_525 &+ 1_013_904_223
                return UInt8(truncatingIfNeeded: state >> 24)
            }
        }
    }

    /// A JPEG that keeps whatever metadata is attached to `image`.
    static func jpeg(_ image: VipsImageHandle, quality: Int = 90) throws -> Data {
        try image.encoded { fn_vips_jpegsave_buffer($0, $1, $2, Int32(quality), 0, 0) }
    }

    /// A PNG of `image`.
    static func png(_ image: VipsImageHandle) throws -> Data {
        try image.encoded { fn_vips_pngsave_buffer($0, $1, $2) }
    }

    /// A WebP of `image`, metadata kept.
    static func webp(_ image: VipsImageHandle) throws -> Data {
        try image.encoded { fn_vips_webpsave_buffer($0, $1, $2, 90, 0) }
    }

    /// A GIF of `image`; frames are stacked vertically when "page-height" is set.
    static func gif(_ image: VipsImageHandle) throws -> Data {
        try image.encoded { fn_vips_gifsave_buffer($0, $1, $2) }
    }

    /// A HEIF file, HEVC (`.heic`) or AV1 (`.avif`).
    static func heif(_ image: VipsImageHandle, compression: VipsForeignHeifCompression) throws -> Data {
        try image.encoded { fn_vips_heifsave_buffer($0, $1, $2, compression) }
    }

    /// Decodes any file libvips can read, fully, into memory.
    static func decode(_ data: Data) throws -> VipsImageHandle {
        try Vips.start()
        let image: UnsafeMutablePointer<VipsImage>? = data.withUnsafeBytes { raw in
            guard let lazy = fn_vips_image_new_from_buffer(raw.baseAddress, raw.count) else { return nil }
            defer { fn_g_object_unref(lazy) }
            return fn_vips_image_copy_memory(lazy)
        }
        guard let image else { throw MediaError.processingFailed(Vips.takeErrorMessage()) }
        return VipsImageHandle(owning: image)
    }

    /// Mean value of one band over a rectangle (the whole image when `rect` is nil).
    static func mean(_ image: VipsImageHandle, band: Int? = nil, in rect: PixelRect? = nil) throws -> Double {
        let area = try rect.map { try image.cropped(to: $0) } ?? image
        let source = try band.map { index in
            try area.derive { fn_vips_extract_band($0, $1, Int32(index), 1) }
        } ?? area
        var value = 0.0
        guard source.withImage({ fn_vips_avg($0, &value) }) == 0 else {
            throw MediaError.processingFailed(Vips.takeErrorMessage())
        }
        return value
    }

    /// Attaches a binary metadata block such as `exif-data`, `xmp-data` or `iptc-data`.
    static func attach(_ name: String, _ blob: Data, to image: VipsImageHandle) {
        blob.withUnsafeBytes { raw in
            image.withImage { fn_vips_image_set_blob_copy($0, name, raw.baseAddress, raw.count) }
        }
    }

    /// Metadata field names that would leak camera or location data.
    static func leakingFields(_ image: VipsImageHandle) -> [String] {
        image.fieldNames.filter { $0.hasPrefix("exif-") || $0 == "xmp-data" || $0 == "iptc-data" }
    }
}
