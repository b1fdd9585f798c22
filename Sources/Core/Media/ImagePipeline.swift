import Foundation

/// The synchronous path from uploaded bytes to encoded outputs.
///
/// Order matters for safety: size, then magic number, then the header's declared
/// dimensions, and only then a full decode. Nothing here touches the disk. Run it
/// through ``MediaProcessor``, which keeps it off the caller's thread and bounds how
/// many images decode at once.
package struct ImagePipeline: Sendable {
    /// The limits to enforce and the output quality.
    package let limits: MediaLimits

    /// Processes one upload.
    /// - Parameters:
    ///   - data: The raw upload.
    ///   - kind: What the image is for.
    ///   - focus: The point crops keep in view; the centre when `nil`.
    /// - Returns: The outputs for `kind`.
    /// - Throws: A `MediaError` describing why the input was refused or failed.
    package func process(_ data: Data, kind: MediaKind, focus: FocalPoint?) throws(MediaError) -> ProcessedImage {
        try Vips.start()
        let format = try acceptedFormat(of: data)
        let result = data.withUnsafeBytes { raw in
            Result { () throws(MediaError) -> ProcessedImage in
                let (base, source) = try normalisedImage(raw, format: format, kind: kind)
                return try render(base, source: source, format: format, kind: kind, focus: focus ?? .centre)
            }
        }
        return try result.get()
    }

    /// Checks size and magic number, and that this libvips can open the format.
    private func acceptedFormat(of data: Data) throws(MediaError) -> ImageFormat {
        guard data.count <= limits.maxBytes else { throw .tooLarge(bytes: data.count) }
        guard let format = ImageFormat.detect(data) else {
            throw UnsupportedSignature.matches(data) ? .unsupportedType : .notAnImage
        }
        if format.needsHeifCodec && Vips.loaderName(for: data) == nil {
            throw .unsupportedType
        }
        return format
    }

    /// Reads the header, enforces the pixel limit, decodes (a JPEG at the smallest DCT scale
    /// that still covers every output of `kind`), turns upright, converts to sRGB and drops
    /// every metadata block.
    /// - Returns: The image, and the upright size of the original (what the API reports).
    private func normalisedImage(
        _ raw: UnsafeRawBufferPointer, format: ImageFormat, kind: MediaKind
    ) throws(MediaError) -> (VipsImageHandle, source: (width: Int, height: Int)) {
        let header = try VipsImageHandle.openHeader(raw, format: format)
        try limits.checkDimensions(width: header.width, height: header.height)
        let source = header.orientationSwapsAxes ? (width: header.height, height: header.width) : (width: header.width, height: header.height)
        let shrink = format == .jpeg ? Self.loadShrink(source: source, kind: kind) : 1
        let decoded = try (shrink > 1 ? VipsImageHandle.openJPEGHeader(raw, shrink: shrink) : header).decoded()
        let upright = try decoded.uprighted().convertedToSRGB().withoutOpaqueAlpha()
        // One more copy, when any step applied, so each output reads finished pixels
        // instead of redoing the rotation and colour transform.
        let base = upright === decoded ? decoded : try upright.materialised()
        base.removeAllMetadata()
        return (base, source)
    }

    /// The largest JPEG load shrink (8, 4 or 2; 1 for none) after which the upright image is
    /// still at least as large as every output of `kind` needs before its crop, so shrinking
    /// on load never costs output pixels.
    package static func loadShrink(source: (width: Int, height: Int), kind: MediaKind) -> Int {
        let sizings = [kind.mainSizing] + (kind.thumbnailSizing.map { [$0] } ?? [])
        let plans = sizings.map { $0.plan(width: source.width, height: source.height, focus: .centre) }
        let needed = (width: plans.map(\.scaledWidth).max() ?? source.width, height: plans.map(\.scaledHeight).max() ?? source.height)
        return [8, 4, 2].first { source.width / $0 >= needed.width && source.height / $0 >= needed.height } ?? 1
    }

    private func render(
        _ base: VipsImageHandle, source: (width: Int, height: Int), format: ImageFormat, kind: MediaKind, focus: FocalPoint
    ) throws(MediaError) -> ProcessedImage {
        let main = try variant(of: base, sizing: kind.mainSizing, focus: focus)
        let thumbnail = try kind.thumbnailSizing.map { sizing throws(MediaError) in
            try variant(of: base, sizing: sizing, focus: focus)
        }
        return ProcessedImage(
            sourceFormat: format, sourceWidth: source.width, sourceHeight: source.height,
            main: main, thumbnail: thumbnail)
    }

    /// Scales, crops, encodes and hashes one output.
    private func variant(of base: VipsImageHandle, sizing: VariantSizing, focus: FocalPoint) throws(MediaError) -> ImageVariant {
        let plan = sizing.plan(width: base.width, height: base.height, focus: focus)
        // Materialised because both the encoder and the BlurHash read it.
        let image = try base.resized(width: plan.scaledWidth, height: plan.scaledHeight)
            .cropped(to: plan.crop).materialised()
        // Transparency survives only in WebP; everything opaque becomes a progressive JPEG.
        let usesWebP = image.hasAlpha
        let data = usesWebP ? try image.webpData(quality: limits.quality) : try image.jpegData(quality: limits.quality)
        return ImageVariant(
            data: data, mimeType: usesWebP ? "image/webp" : "image/jpeg",
            width: image.width, height: image.height, blurhash: try blurHash(of: image))
    }

    /// BlurHash of a copy at most 64 px on its long side: 4 x 3 components for landscape
    /// and square images, 3 x 4 for portrait ones. An opaque image is averaged down
    /// (``AreaAverage``); one with transparency is resized and flattened on white.
    private func blurHash(of image: VipsImageHandle) throws(MediaError) -> String {
        let plan = ResizePlan.fit(width: image.width, height: image.height, maxSide: 64)
        let (width, height) = (plan.scaledWidth, plan.scaledHeight)
        let pixels: [UInt8]
        if let averaged = try image.areaAveragedRGB(width: width, height: height) {
            pixels = averaged
        } else {
            pixels = try image.resized(width: width, height: height).rgbPixels()
        }
        let portrait = height > width
        guard let hash = BlurHash.encode(
            pixels: pixels, width: width, height: height,
            componentsX: portrait ? 3 : 4, componentsY: portrait ? 4 : 3)
        else { throw .processingFailed("blurhash input had an unexpected size") }
        return hash
    }
}
