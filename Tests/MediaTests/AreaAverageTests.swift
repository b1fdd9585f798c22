@testable import Core
import CVips
import Foundation
import Testing

@testable import FedNode

/// The box average a BlurHash is computed from.
@Suite("Area averaging")
struct AreaAverageTests {
    @Test("each output pixel is the rounded mean of its block")
    func blockMeans() {
        // 4 x 2 pixels of one band into 2 x 1: blocks {0, 10, 20, 30} and {1, 2, 3, 5}.
        let source: [UInt8] = [0, 10, 1, 2, 20, 30, 3, 5]
        let averaged = source.withUnsafeBufferPointer {
            AreaAverage.reduce($0.baseAddress!, width: 4, height: 2, bands: 1, toWidth: 2, height: 1)
        }
        #expect(averaged == [15, 3])
    }

    @Test("every source pixel counts once when the sizes do not divide")
    func unevenBlocks() {
        let flat = [UInt8](repeating: 77, count: 5 * 3 * 2)
        let averaged = flat.withUnsafeBufferPointer {
            AreaAverage.reduce($0.baseAddress!, width: 5, height: 3, bands: 2, toWidth: 2, height: 2)
        }
        #expect(averaged == [UInt8](repeating: 77, count: 2 * 2 * 2))
        // 0, 10, ..., 140 averaged into one pixel: 70.
        let ramp = (0..<15).map { UInt8($0 * 10) }
        let one = ramp.withUnsafeBufferPointer {
            AreaAverage.reduce($0.baseAddress!, width: 15, height: 1, bands: 1, toWidth: 1, height: 1)
        }
        #expect(one == [70])
        // 7 columns into 3: blocks of 3, 2 and 2 columns (0, 1, 2 | 3, 4 | 5, 6).
        let columns = (0..<7).map { UInt8($0 * 30) }
        let three = columns.withUnsafeBufferPointer {
            AreaAverage.reduce($0.baseAddress!, width: 7, height: 1, bands: 1, toWidth: 3, height: 1)
        }
        #expect(three == [30, 105, 165])
    }

    @Test("a libvips image is averaged by its quadrants' colours")
    func fromImage() throws {
        let image = try TestImages.make(width: 40, height: 30) { x, y in
            x < 20 ? (y < 15 ? [255, 0, 0] : [0, 255, 0]) : (y < 15 ? [0, 0, 255] : [10, 20, 30])
        }
        let averaged = try #require(try image.materialised().areaAveragedRGB(width: 2, height: 2))
        #expect(averaged == [255, 0, 0, 0, 0, 255, 0, 255, 0, 10, 20, 30])
    }

    @Test("images with transparency are left to the resize-and-flatten path")
    func alphaIsNotAveraged() throws {
        let image = try TestImages.make(width: 8, height: 8, bands: 4) { _, _ in [1, 2, 3, 128] }
            .derive { fn_vips_colourspace($0, $1, VIPS_INTERPRETATION_sRGB) }
        #expect(try image.areaAveragedRGB(width: 2, height: 2) == nil)
    }
}
