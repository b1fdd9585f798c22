@testable import Core
import CVips
import Foundation
import Testing

@testable import FedNode

/// CMYK, 16-bit and greyscale inputs end up as 8-bit sRGB JPEGs with the right colours.
@Suite("Inputs in other colour spaces come out as 8-bit sRGB")
struct ColourSpaceTests {
    /// The processor under test, with production limits.
    let processor = MediaProcessor()

    /// A solid orange 200x150 image.
    private func orange() throws -> VipsImageHandle {
        try TestImages.make(width: 200, height: 150) { _, _ in [230, 120, 40] }
    }

    private func expectOrange(_ result: ProcessedImage, tolerance: Double) throws {
        #expect(result.main.mimeType == "image/jpeg")
        let output = try TestImages.decode(result.main.data)
        #expect(output.bands == 3)
        #expect(output.interpretation == VIPS_INTERPRETATION_sRGB)
        for (band, expected) in [230.0, 120, 40].enumerated() {
            let mean = try TestImages.mean(output, band: band)
            #expect(abs(mean - expected) <= tolerance, "band \(band): \(mean)")
        }
    }

    @Test("CMYK JPEG with its profile")
    func cmykWithProfile() async throws {
        let cmyk = try orange().derive { fn_vips_icc_transform_from_srgb($0, $1, "cmyk") }
        #expect(cmyk.interpretation == VIPS_INTERPRETATION_CMYK)
        let result = try await processor.process(try TestImages.jpeg(cmyk, quality: 100), kind: .avatar)
        try expectOrange(result, tolerance: 12)
    }

    @Test("CMYK JPEG without a profile")
    func cmykWithoutProfile() async throws {
        let cmyk = try orange().derive { fn_vips_icc_transform_from_srgb($0, $1, "cmyk") }
        cmyk.removeField("icc-profile-data")
        let input = try TestImages.jpeg(cmyk, quality: 100)
        #expect(!(try TestImages.decode(input)).hasField("icc-profile-data"))
        let result = try await processor.process(input, kind: .avatar)
        try expectOrange(result, tolerance: 12)
    }

    @Test("16-bit RGB PNG")
    func sixteenBitPNG() async throws {
        let deep = try orange().derive { fn_vips_colourspace($0, $1, VIPS_INTERPRETATION_RGB16) }
        #expect(deep.bandFormat == VIPS_FORMAT_USHORT)
        let result = try await processor.process(try TestImages.png(deep), kind: .avatar)
        try expectOrange(result, tolerance: 3)
    }

    @Test("8-bit greyscale JPEG becomes three equal bands")
    func greyscale() async throws {
        let grey = try TestImages.make(width: 200, height: 150, bands: 1) { _, _ in [90] }
        let result = try await processor.process(try TestImages.jpeg(grey, quality: 100), kind: .avatar)
        let output = try TestImages.decode(result.main.data)
        #expect(output.bands == 3)
        for band in 0..<3 {
            #expect(abs(try TestImages.mean(output, band: band) - 90) <= 3)
        }
    }
}
