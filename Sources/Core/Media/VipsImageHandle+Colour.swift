import CVips
import Foundation

extension VipsImageHandle {
    /// Turns the image upright according to its EXIF orientation (CIPA DC-008 4.6.4 A).
    /// - Returns: The rotated or flipped image, without an orientation tag; the image
    ///   itself when it is already upright (orientation 1 or none).
    /// - Throws: `MediaError.processingFailed` when libvips fails.
    package func uprighted() throws(MediaError) -> VipsImageHandle {
        guard withImage({ fn_vips_image_get_orientation($0) }) != 1 else { return self }
        return try derive { fn_vips_autorot($0, $1) }
    }

    /// Converts to 8-bit sRGB, keeping an alpha band if there is one.
    ///
    /// An embedded ICC profile is honoured (converted from, then dropped); an unusable
    /// profile is ignored and the image is converted from its nominal colour space.
    /// - Returns: A 3- or 4-band `uchar` sRGB image.
    /// - Throws: `MediaError.processingFailed` when no conversion exists.
    package func convertedToSRGB() throws(MediaError) -> VipsImageHandle {
        var image = self
        if hasField("icc-profile-data") {
            if let transformed = try? derive({ fn_vips_icc_transform_srgb($0, $1) }) {
                image = transformed
            }
            image.removeField("icc-profile-data")
        }
        if image.interpretation != VIPS_INTERPRETATION_sRGB,
           image.withImage({ fn_vips_colourspace_issupported($0) }) != 0 {
            image = try image.derive { fn_vips_colourspace($0, $1, VIPS_INTERPRETATION_sRGB) }
        }
        if image.bandFormat != VIPS_FORMAT_UCHAR {
            image = try image.derive { fn_vips_cast($0, $1, VIPS_FORMAT_UCHAR) }
        }
        guard image.bands == 3 || image.bands == 4 else {
            throw .processingFailed("unexpected band count \(image.bands) after sRGB conversion")
        }
        return image
    }

    /// Drops the alpha band when every pixel is fully opaque.
    /// - Returns: The image itself when transparency is used, else its colour bands.
    /// - Throws: `MediaError.processingFailed` when libvips fails.
    package func withoutOpaqueAlpha() throws(MediaError) -> VipsImageHandle {
        guard hasAlpha else { return self }
        let alphaBand = bands - 1
        let alpha = try derive { fn_vips_extract_band($0, $1, Int32(alphaBand), 1) }
        var minimum = 0.0
        guard alpha.withImage({ fn_vips_min($0, &minimum) }) == 0 else {
            throw .processingFailed(Vips.takeErrorMessage())
        }
        guard minimum >= 255 else { return self }
        return try derive { fn_vips_extract_band($0, $1, 0, Int32(alphaBand)) }
    }

    /// Composites any alpha band over white.
    /// - Returns: A 3-band image.
    /// - Throws: `MediaError.processingFailed` when libvips fails.
    package func flattenedOnWhite() throws(MediaError) -> VipsImageHandle {
        guard hasAlpha else { return self }
        return try derive { fn_vips_flatten_white($0, $1) }.derive { fn_vips_cast($0, $1, VIPS_FORMAT_UCHAR) }
    }

    /// Detaches every metadata block: EXIF, XMP, IPTC, ICC, orientation and the rest.
    ///
    /// The savers also run with `strip`; this makes the in-memory image clean as well,
    /// so no later step can carry a block through by accident.
    package func removeAllMetadata() {
        let keep: Set<String> = [
            "width", "height", "bands", "format", "coding", "interpretation",
            "xoffset", "yoffset", "xres", "yres", "filename",
        ]
        for name in fieldNames where !keep.contains(name) {
            removeField(name)
        }
    }
}
