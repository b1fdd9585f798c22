import Foundation

/// The point of an image that crops should keep in view.
///
/// Mastodon's convention (API `focus` parameter): both axes run from -1 to 1 with
/// (0, 0) at the centre; `x` grows to the right and `y` grows **upwards**, so (1, 1)
/// is the top-right corner.
public struct FocalPoint: Sendable, Equatable {
    /// Horizontal position, -1 (left edge) to 1 (right edge).
    public let x: Double
    /// Vertical position, -1 (bottom edge) to 1 (top edge).
    public let y: Double

    /// The image centre.
    public static let centre = FocalPoint(x: 0, y: 0)

    /// Creates a focal point, clamping each coordinate into -1...1 (NaN becomes 0).
    /// - Parameters:
    ///   - x: Horizontal position, right positive.
    ///   - y: Vertical position, up positive.
    public init(x: Double, y: Double) {
        self.x = Self.clamp(x)
        self.y = Self.clamp(y)
    }

    /// Parses Mastodon's `focus` form value, `"x,y"` such as `"-0.5,0.25"`.
    /// - Parameter parameter: The raw form value.
    /// - Returns: `nil` unless the value is two comma-separated numbers.
    public init?(parameter: String) {
        let parts = parameter.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let x = Double(parts[0].trimmingCharacters(in: .whitespaces)),
              let y = Double(parts[1].trimmingCharacters(in: .whitespaces)),
              x.isFinite, y.isFinite
        else { return nil }
        self.init(x: x, y: y)
    }

    /// The point in pixels of an image `width` x `height`, origin top-left, y down.
    /// - Parameters:
    ///   - width: Image width in pixels.
    ///   - height: Image height in pixels.
    /// - Returns: The pixel position the focal point names.
    func pixelPosition(width: Int, height: Int) -> (x: Double, y: Double) {
        ((x + 1) / 2 * Double(width), (1 - y) / 2 * Double(height))
    }

    private static func clamp(_ value: Double) -> Double {
        value.isNaN ? 0 : min(max(value, -1), 1)
    }
}
