import CVips
import Foundation

/// Owns one reference to a libvips image and releases it on deinit.
///
/// Handles never cross threads: a whole pipeline runs synchronously on one worker, so
/// the type is deliberately not `Sendable`. Operations return new handles; libvips images
/// are immutable once built, except for metadata, which only the owner changes.
///
/// The raw pointer is reachable only inside ``withImage(_:)``, ``derive(_:)`` and
/// ``encoded(_:)``: Swift may release an object right after its last use, so a pointer
/// read out of a handle could dangle before the C call that uses it. Inside a method
/// `self` is guaranteed alive until the method returns.
package final class VipsImageHandle {
    /// The output slot an operation writes its result into.
    package typealias OutputSlot = UnsafeMutablePointer<UnsafeMutablePointer<VipsImage>?>

    private let pointer: UnsafeMutablePointer<VipsImage>

    /// Takes over a reference the caller already owns (such as an operation's output).
    /// - Parameter pointer: A libvips image with one reference transferred to the handle.
    package init(owning pointer: UnsafeMutablePointer<VipsImage>) {
        self.pointer = pointer
    }

    deinit {
        fn_g_object_unref(pointer)
    }

    /// Width in pixels.
    package var width: Int { Int(fn_vips_image_get_width(pointer)) }

    /// Height in pixels (of the first page, for loaders asked for one page).
    package var height: Int { Int(fn_vips_image_get_height(pointer)) }

    /// Number of bands, alpha included.
    package var bands: Int { Int(fn_vips_image_get_bands(pointer)) }

    /// Whether the last band is an alpha channel.
    package var hasAlpha: Bool { fn_vips_image_hasalpha(pointer) != 0 }

    /// The colour interpretation libvips assigned.
    package var interpretation: VipsInterpretation { fn_vips_image_get_interpretation(pointer) }

    /// The numeric format of each band.
    package var bandFormat: VipsBandFormat { fn_vips_image_get_format(pointer) }

    /// Names of every header and metadata field attached to the image.
    package var fieldNames: [String] {
        guard let fields = fn_vips_image_get_fields(pointer) else { return [] }
        defer { fn_g_strfreev(fields) }
        var names: [String] = []
        var index = 0
        while let name = fields[index] {
            names.append(String(cString: name))
            index += 1
        }
        return names
    }

    /// Whether a metadata field with this name is attached.
    /// - Parameter name: A field name such as `icc-profile-data`.
    package func hasField(_ name: String) -> Bool {
        fn_vips_image_get_typeof(pointer, name) != 0
    }

    /// Detaches a metadata field if present.
    /// - Parameter name: A field name such as `exif-data`.
    package func removeField(_ name: String) {
        _ = fn_vips_image_remove(pointer, name)
    }

    /// Calls `body` with the raw image while the handle is certainly alive.
    /// - Parameter body: Reads or annotates the image; must not keep the pointer.
    /// - Returns: What `body` returns.
    package func withImage<R>(_ body: (UnsafeMutablePointer<VipsImage>) -> R) -> R {
        body(pointer)
    }

    /// Runs a libvips operation that reads this image and writes one output image.
    /// - Parameter body: Calls the shim with this image and the output slot.
    /// - Returns: The output image.
    /// - Throws: `MediaError.processingFailed` with libvips' message when the call fails.
    package func derive(_ body: (UnsafeMutablePointer<VipsImage>, OutputSlot) -> Int32) throws(MediaError) -> VipsImageHandle {
        var output: UnsafeMutablePointer<VipsImage>?
        guard body(pointer, &output) == 0, let output else {
            throw .processingFailed(Vips.takeErrorMessage())
        }
        return VipsImageHandle(owning: output)
    }

    /// Runs a saver shim on this image and takes ownership of the buffer it allocates.
    /// - Parameter body: Calls the saver with this image and the buffer and length slots.
    /// - Returns: A copy of the encoded bytes; the libvips buffer is freed.
    /// - Throws: `MediaError.processingFailed` when the saver fails.
    package func encoded(
        _ body: (UnsafeMutablePointer<VipsImage>, UnsafeMutablePointer<UnsafeMutableRawPointer?>, UnsafeMutablePointer<Int>) -> Int32
    ) throws(MediaError) -> Data {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard body(pointer, &buffer, &length) == 0, let buffer else {
            throw .processingFailed(Vips.takeErrorMessage())
        }
        defer { fn_g_free(buffer) }
        return Data(bytes: buffer, count: length)
    }
}
