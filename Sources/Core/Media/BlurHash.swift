import Foundation

/// The BlurHash placeholder algorithm (woltapp/blurhash, Algorithm.md).
///
/// An image is reduced to a few cosine components in linear RGB: one DC term (the
/// average colour, stored as sRGB) and `x * y - 1` AC terms quantised against their
/// largest magnitude, all written in base 83.
public enum BlurHash {
    /// Encodes packed 8-bit sRGB pixels.
    /// - Parameters:
    ///   - pixels: `width * height * 3` bytes, RGB, rows top to bottom.
    ///   - width: Image width, at least 1.
    ///   - height: Image height, at least 1.
    ///   - componentsX: Horizontal components, 1-9. Default 4.
    ///   - componentsY: Vertical components, 1-9. Default 3.
    /// - Returns: The hash (`4 + 2 * x * y` characters), or `nil` for invalid arguments.
    public static func encode(
        pixels: [UInt8], width: Int, height: Int, componentsX: Int = 4, componentsY: Int = 3
    ) -> String? {
        guard (1...9).contains(componentsX), (1...9).contains(componentsY),
              width > 0, height > 0, pixels.count == width * height * 3
        else { return nil }
        let linear = pixels.map { sRGBToLinear[Int($0)] }
        var factors: [[Double]] = []
        for j in 0..<componentsY {
            for i in 0..<componentsX {
                factors.append(factor(i: i, j: j, linear: linear, width: width, height: height))
            }
        }
        return assemble(factors: factors, componentsX: componentsX, componentsY: componentsY)
    }

    /// Reads the component counts from a hash's first character.
    /// - Parameter hash: A BlurHash.
    /// - Returns: `(x, y)`, or `nil` when the hash is malformed or of the wrong length.
    public static func components(of hash: String) -> (x: Int, y: Int)? {
        guard let first = hash.first, let size = Base83.decode(String(first)) else { return nil }
        let x = size % 9 + 1
        let y = size / 9 + 1
        guard hash.count == 4 + 2 * x * y else { return nil }
        return (x, y)
    }

    /// Reads the average colour (the DC term) from a hash.
    /// - Parameter hash: A BlurHash.
    /// - Returns: 8-bit sRGB `(r, g, b)`, or `nil` when the hash is malformed.
    public static func averageColor(of hash: String) -> (r: UInt8, g: UInt8, b: UInt8)? {
        guard components(of: hash) != nil,
              let value = Base83.decode(hash.dropFirst(2).prefix(4))
        else { return nil }
        return (UInt8(value >> 16 & 255), UInt8(value >> 8 & 255), UInt8(value & 255))
    }

    /// One component: the image multiplied by cos(pi i x / w) cos(pi j y / h), averaged.
    private static func factor(i: Int, j: Int, linear: [Double], width: Int, height: Int) -> [Double] {
        let normalisation: Double = (i == 0 && j == 0) ? 1 : 2
        let cosX = (0..<width).map { cos(Double.pi * Double(i) * Double($0) / Double(width)) }
        var sum = [0.0, 0.0, 0.0]
        for y in 0..<height {
            let cosY = cos(Double.pi * Double(j) * Double(y) / Double(height))
            for x in 0..<width {
                let basis = normalisation * cosX[x] * cosY
                let offset = (y * width + x) * 3
                sum[0] += basis * linear[offset]
                sum[1] += basis * linear[offset + 1]
                sum[2] += basis * linear[offset + 2]
            }
        }
        let count = Double(width * height)
        return sum.map { $0 / count }
    }

    /// Writes size flag, quantised maximum, DC and AC terms (Algorithm.md "Structure").
    private static func assemble(factors: [[Double]], componentsX: Int, componentsY: Int) -> String {
        let ac = factors.dropFirst()
        var hash = Base83.encode((componentsX - 1) + (componentsY - 1) * 9, length: 1)
        var maximumValue = 1.0
        if ac.isEmpty {
            hash += Base83.encode(0, length: 1)
        } else {
            let actualMaximum = ac.flatMap { $0 }.map(abs).max() ?? 0
            let quantisedMaximum = Int(max(0, min(82, (actualMaximum * 166 - 0.5).rounded(.down))))
            maximumValue = Double(quantisedMaximum + 1) / 166
            hash += Base83.encode(quantisedMaximum, length: 1)
        }
        hash += Base83.encode(encodeDC(factors[0]), length: 4)
        for component in ac {
            hash += Base83.encode(encodeAC(component, maximumValue: maximumValue), length: 2)
        }
        return hash
    }

    private static func encodeDC(_ value: [Double]) -> Int {
        (linearToSRGB(value[0]) << 16) + (linearToSRGB(value[1]) << 8) + linearToSRGB(value[2])
    }

    private static func encodeAC(_ value: [Double], maximumValue: Double) -> Int {
        let quantised = value.map { component -> Int in
            let scaled = signPow(component / maximumValue, 0.5) * 9 + 9.5
            return Int(max(0, min(18, scaled.rounded(.down))))
        }
        return quantised[0] * 19 * 19 + quantised[1] * 19 + quantised[2]
    }

    private static func signPow(_ value: Double, _ exponent: Double) -> Double {
        (value < 0 ? -1 : 1) * pow(abs(value), exponent)
    }

    /// sRGB transfer function inverse (IEC 61966-2-1), for every 8-bit value.
    private static let sRGBToLinear: [Double] = (0...255).map { byte in
        let value = Double(byte) / 255
        return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }

    private static func linearToSRGB(_ linear: Double) -> Int {
        let value = max(0, min(1, linear))
        if value <= 0.0031308 { return Int(value * 12.92 * 255 + 0.5) }
        return Int((1.055 * pow(value, 1 / 2.4) - 0.055) * 255 + 0.5)
    }
}
