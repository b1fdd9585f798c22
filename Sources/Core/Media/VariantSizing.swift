/// The geometry rule for one output image.
package enum VariantSizing: Sendable, Equatable {
    /// Shrink to at most `maxSide` on the long side; keep the aspect ratio; never enlarge.
    case fit(maxSide: Int)
    /// Cover `width` x `height` and crop around the focal point; enlarge only if `upscale`.
    case fill(width: Int, height: Int, upscale: Bool)

    /// Works out the scale and crop for a source of the given size.
    /// - Parameters:
    ///   - width: Source width (after EXIF rotation).
    ///   - height: Source height (after EXIF rotation).
    ///   - focus: The point to keep in view; used by `fill` only.
    /// - Returns: The plan to apply.
    package func plan(width: Int, height: Int, focus: FocalPoint) -> ResizePlan {
        switch self {
        case .fit(let maxSide):
            return .fit(width: width, height: height, maxSide: maxSide)
        case .fill(let targetWidth, let targetHeight, let upscale):
            return .fill(
                width: width, height: height, targetWidth: targetWidth, targetHeight: targetHeight,
                focus: focus, upscale: upscale)
        }
    }
}
