import Foundation

/// How one output is cut from a source: scale to an exact size, then crop.
///
/// Pure arithmetic, so the geometry rules are tested without decoding anything.
package struct ResizePlan: Sendable, Equatable {
    /// Width after scaling, before cropping.
    package let scaledWidth: Int
    /// Height after scaling, before cropping.
    package let scaledHeight: Int
    /// The area of the scaled image that is kept.
    package let crop: PixelRect

    /// Shrinks so the longer side is at most `maxSide`, keeping the aspect ratio.
    ///
    /// Never enlarges: a source already within bounds keeps its size.
    /// - Parameters:
    ///   - width: Source width.
    ///   - height: Source height.
    ///   - maxSide: Largest allowed side of the output.
    /// - Returns: A plan whose crop is the whole scaled image.
    package static func fit(width: Int, height: Int, maxSide: Int) -> ResizePlan {
        let longSide = max(width, height)
        guard longSide > maxSide else { return whole(width: width, height: height) }
        let scale = Double(maxSide) / Double(longSide)
        let scaledWidth = width >= height ? maxSide : max(1, Int((Double(width) * scale).rounded()))
        let scaledHeight = height > width ? maxSide : max(1, Int((Double(height) * scale).rounded()))
        return whole(width: scaledWidth, height: scaledHeight)
    }

    /// Scales so the source covers `targetWidth` x `targetHeight`, then crops to it
    /// around the focal point.
    ///
    /// The crop window is centred on the focal point as closely as it can be while
    /// staying inside the image. Without `upscale`, a source smaller than the target is
    /// left at its size and cropped to the largest window of the target's aspect ratio.
    /// - Parameters:
    ///   - width: Source width.
    ///   - height: Source height.
    ///   - targetWidth: Output width.
    ///   - targetHeight: Output height.
    ///   - focus: The point to keep in view.
    ///   - upscale: Whether a small source may be enlarged to reach the target size.
    /// - Returns: The scale-then-crop plan.
    package static func fill(
        width: Int, height: Int, targetWidth: Int, targetHeight: Int,
        focus: FocalPoint, upscale: Bool
    ) -> ResizePlan {
        var scale = max(Double(targetWidth) / Double(width), Double(targetHeight) / Double(height))
        if !upscale { scale = min(scale, 1) }
        var scaledWidth = max(1, Int((Double(width) * scale).rounded()))
        var scaledHeight = max(1, Int((Double(height) * scale).rounded()))
        if upscale {
            scaledWidth = max(scaledWidth, targetWidth)
            scaledHeight = max(scaledHeight, targetHeight)
        }
        let window = cropSize(
            width: scaledWidth, height: scaledHeight, targetWidth: targetWidth, targetHeight: targetHeight)
        let (focusX, focusY) = focus.pixelPosition(width: scaledWidth, height: scaledHeight)
        let left = clampedOrigin(centre: focusX, window: window.width, extent: scaledWidth)
        let top = clampedOrigin(centre: focusY, window: window.height, extent: scaledHeight)
        return ResizePlan(
            scaledWidth: scaledWidth, scaledHeight: scaledHeight,
            crop: PixelRect(x: left, y: top, width: window.width, height: window.height))
    }

    private static func whole(width: Int, height: Int) -> ResizePlan {
        ResizePlan(scaledWidth: width, scaledHeight: height, crop: PixelRect(x: 0, y: 0, width: width, height: height))
    }

    /// The target size if it fits, else the largest box of the target's aspect ratio.
    private static func cropSize(
        width: Int, height: Int, targetWidth: Int, targetHeight: Int
    ) -> (width: Int, height: Int) {
        if width >= targetWidth && height >= targetHeight { return (targetWidth, targetHeight) }
        let aspect = Double(targetWidth) / Double(targetHeight)
        let boxWidth = max(1, min(width, Int((Double(height) * aspect).rounded(.down))))
        let boxHeight = max(1, min(height, Int((Double(boxWidth) / aspect).rounded())))
        return (boxWidth, boxHeight)
    }

    /// Puts a window of size `window` as close to centred on `centre` as `extent` allows.
    private static func clampedOrigin(centre: Double, window: Int, extent: Int) -> Int {
        let ideal = Int((centre - Double(window) / 2).rounded())
        return min(max(ideal, 0), max(extent - window, 0))
    }
}
