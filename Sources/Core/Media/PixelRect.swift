/// An axis-aligned rectangle in whole pixels, origin at the top-left corner.
package struct PixelRect: Sendable, Equatable {
    /// Distance of the left edge from the image's left edge.
    package var x: Int
    /// Distance of the top edge from the image's top edge.
    package var y: Int
    /// Width in pixels.
    package var width: Int
    /// Height in pixels.
    package var height: Int
}
