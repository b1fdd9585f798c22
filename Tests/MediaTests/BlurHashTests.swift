@testable import Core
import Foundation
import Testing

@testable import FedNode

/// The encoder against reference output, and the hashes the pipeline attaches.
@Suite("BlurHash")
struct BlurHashTests {
    /// Packed RGB bytes from a per-pixel formula.
    private func pixels(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> (Int, Int, Int)) -> [UInt8] {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = pixel(x, y)
                bytes += [UInt8(r), UInt8(g), UInt8(b)]
            }
        }
        return bytes
    }

    // Expected values were produced by the independent pure-Python implementation
    // (PyPI `blurhash` 1.1.5, a port of the reference Swift encoder) on the same formulas.
    @Test("matches the reference implementation on deterministic images")
    func referenceVectors() {
        #expect(BlurHash.encode(pixels: pixels(32, 24) { x, y in (x * 8, y * 10, 128) }, width: 32, height: 24, componentsX: 4, componentsY: 3)
            == "LxH27k2swxX8mHWWjtf7gJfjfQfj")
        #expect(BlurHash.encode(pixels: pixels(20, 30) { x, y in ((x * y) % 256, (x * 13 + y * 7) % 256, 255 - x * 12) }, width: 20, height: 30, componentsX: 3, componentsY: 4)
            == "T?Dwv^OxNOK4Z:rcOCrbo^X8sDS|")
        #expect(BlurHash.encode(pixels: pixels(16, 16) { _, _ in (50, 100, 200) }, width: 16, height: 16, componentsX: 4, componentsY: 3)
            == "LB5%XUp3fQp3p3j]fQj]fQfQfQfQ")
        #expect(BlurHash.encode(pixels: pixels(9, 7) { x, y in ((x * 37 + y * 11) % 256, (x * x + y * y * 3) % 256, (x * y * 5) % 256) }, width: 9, height: 7, componentsX: 9, componentsY: 9)
            == "|nF|GraI2YxG#lK5nht7R%rWSjSL#,ShR*w|R*ShX4bHo1oKWqbFo2bFa}s;n$SMW;sAj[S2oLn%V@W?jtn%W;ayoLWVbH$+awN^oLjZW;n$bIWUV?W?jsn%W;ayoMWUbIxbn#SNW;sAbIWUoMjYV?W?jsn%W;ayoMWUbI")
    }

    @Test("a solid colour with one component is its DC term only")
    func solidColourDC() throws {
        // Size flag 0 ("0"), no AC so maximum 0 ("0"), then 0xFF0000 in four base-83 digits.
        let hash = BlurHash.encode(pixels: pixels(4, 4) { _, _ in (255, 0, 0) }, width: 4, height: 4, componentsX: 1, componentsY: 1)
        #expect(hash == "00TI:j")
        let colour = try #require(BlurHash.averageColor(of: "00TI:j"))
        #expect(colour == (255, 0, 0))
    }

    @Test("the first character encodes the component counts")
    func componentCounts() throws {
        for (x, y) in [(1, 1), (4, 3), (3, 4), (9, 9), (2, 7)] {
            let hash = try #require(BlurHash.encode(pixels: pixels(8, 8) { a, b in (a * 30, b * 30, 90) }, width: 8, height: 8, componentsX: x, componentsY: y))
            #expect(hash.count == 4 + 2 * x * y)
            let components = try #require(BlurHash.components(of: hash))
            #expect(components == (x, y))
        }
        #expect(BlurHash.components(of: "LxH27k") == nil)
        #expect(BlurHash.encode(pixels: [1, 2, 3], width: 1, height: 1, componentsX: 10, componentsY: 1) == nil)
        #expect(BlurHash.encode(pixels: [1, 2], width: 1, height: 1) == nil)
    }

    @Test("processed uploads carry 4x3 hashes when landscape, 3x4 when portrait")
    func pipelineHashes() async throws {
        let processor = MediaProcessor()
        let landscape = try await processor.process(try TestImages.jpeg(try TestImages.gradient(width: 600, height: 400)), kind: .post)
        #expect(BlurHash.components(of: landscape.main.blurhash)! == (4, 3))
        #expect(BlurHash.components(of: try #require(landscape.thumbnail).blurhash)! == (4, 3))
        let portrait = try await processor.process(try TestImages.jpeg(try TestImages.gradient(width: 400, height: 600)), kind: .post)
        #expect(BlurHash.components(of: portrait.main.blurhash)! == (3, 4))
    }

    @Test("a processed solid blue upload hashes to blue")
    func pipelineColour() async throws {
        let blue = try TestImages.make(width: 300, height: 200) { _, _ in [20, 40, 220] }
        let result = try await MediaProcessor().process(try TestImages.jpeg(blue, quality: 100), kind: .post)
        let colour = try #require(BlurHash.averageColor(of: result.main.blurhash))
        #expect(abs(Int(colour.r) - 20) <= 4 && abs(Int(colour.g) - 40) <= 4 && abs(Int(colour.b) - 220) <= 4)
    }
}
