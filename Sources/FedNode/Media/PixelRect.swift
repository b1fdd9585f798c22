/// An axis-aligned rectangle in whole pixels, origin at the top-left corner.
struct PixelRect: Sendable, Equatable {
    /// Distance of the left edge from the image's left edge.
    var x: Int
    /// Distance of the top edge from the image's top edge.
    var y: Int
    /// Width in pixels.
    var width: Int
    /// Height in pixels.
    var height: Int
}
