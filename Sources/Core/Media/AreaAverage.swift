/// Shrinks packed 8-bit pixels by averaging the block of source pixels under each
/// output pixel.
///
/// Used for the tiny image a BlurHash is computed from: the hash keeps only a few
/// cosine components, so a box filter loses nothing it would keep, and one pass over
/// the source costs a fraction of a Lanczos resize to 64 px.
package enum AreaAverage {
    /// Averages `width` x `height` pixels down to `outputWidth` x `outputHeight`.
    /// - Parameters:
    ///   - source: `width * height * bands` bytes, rows top to bottom.
    ///   - width: Source width.
    ///   - height: Source height.
    ///   - bands: Bytes per pixel.
    ///   - outputWidth: Output width, 1 to `width`.
    ///   - outputHeight: Output height, 1 to `height`.
    /// - Returns: `outputWidth * outputHeight * bands` bytes.
    package static func reduce(
        _ source: UnsafePointer<UInt8>, width: Int, height: Int, bands: Int, toWidth outputWidth: Int, height outputHeight: Int
    ) -> [UInt8] {
        precondition((1...width).contains(outputWidth) && (1...height).contains(outputHeight) && bands > 0)
        // Source column x falls in output column x * outputWidth / width, so output column c
        // covers source columns columns[c] ..< columns[c + 1]; likewise for rows. Every output
        // pixel covers a block of whole source pixels, and every source pixel one block.
        let columns = blockStarts(width, into: outputWidth)
        let rows = blockStarts(height, into: outputHeight)
        var output = [UInt8](repeating: 0, count: outputWidth * outputHeight * bands)
        let sums = UnsafeMutablePointer<Int>.allocate(capacity: outputWidth * bands)
        defer { sums.deallocate() }
        for outputRow in 0..<outputHeight {
            sums.initialize(repeating: 0, count: outputWidth * bands)
            for row in rows[outputRow]..<rows[outputRow + 1] {
                let line = source + row * width * bands
                for column in 0..<outputWidth {
                    for x in columns[column]..<columns[column + 1] {
                        for band in 0..<bands {
                            sums[column * bands + band] &+= Int(line[x * bands + band])
                        }
                    }
                }
            }
            let blockRows = rows[outputRow + 1] - rows[outputRow]
            for column in 0..<outputWidth {
                let count = (columns[column + 1] - columns[column]) * blockRows
                for band in 0..<bands {
                    let slot = column * bands + band
                    output[outputRow * outputWidth * bands + slot] = UInt8((sums[slot] + count / 2) / count)
                }
            }
        }
        return output
    }

    /// Where each of `parts` blocks of `extent` starts, and `extent` last: block i holds the
    /// positions p with p * parts / extent == i (never empty when parts <= extent).
    private static func blockStarts(_ extent: Int, into parts: Int) -> [Int] {
        (0...parts).map { ($0 * extent + parts - 1) / parts }
    }
}
