@testable import Core
import CVips
import Foundation
@testable import FedNode

/// Real encoded images made with libvips in the test (no binary fixtures): uploads now go
/// through the full decode, so header-only fakes are refused.
enum RealImages {
    /// A smooth RGB gradient of `width`×`height`.
    static func gradient(width: Int, height: Int) throws -> VipsImageHandle {
        try Vips.start()
        var bytes = [UInt8](repeating: 128, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                bytes[(y * width + x) * 3] = UInt8(x * 255 / max(width - 1, 1))
                bytes[(y * width + x) * 3 + 1] = UInt8(y * 255 / max(height - 1, 1))
            }
        }
        let image = bytes.withUnsafeBytes { raw in
            fn_vips_image_new_from_memory_copy(raw.baseAddress, raw.count, Int32(width), Int32(height), 3, VIPS_FORMAT_UCHAR)
        }
        guard let image else { throw MediaError.processingFailed(Vips.takeErrorMessage()) }
        return VipsImageHandle(owning: image)
    }

    /// A PNG of a gradient.
    static func png(width: Int, height: Int) throws -> Data {
        try gradient(width: width, height: height).encoded { fn_vips_pngsave_buffer($0, $1, $2) }
    }

    /// A JPEG of a gradient.
    static func jpeg(width: Int, height: Int) throws -> Data {
        try gradient(width: width, height: height).encoded { fn_vips_jpegsave_buffer($0, $1, $2, 90, 0, 0) }
    }

    /// Decodes encoded image bytes (to read back what the node stored).
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
}
