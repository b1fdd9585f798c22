@testable import Core
import CVips
import Foundation
import Testing

@testable import FedNode

/// Magic-number detection and per-format handling.
@Suite("Formats: detection, transparency, animation, HEIF")
struct FormatTests {
    /// The processor under test, with production limits.
    let processor = MediaProcessor()

    @Test("containers are recognised from their bytes")
    func detection() throws {
        let image = try TestImages.gradient(width: 32, height: 24)
        #expect(ImageFormat.detect(try TestImages.jpeg(image)) == .jpeg)
        #expect(ImageFormat.detect(try TestImages.png(image)) == .png)
        #expect(ImageFormat.detect(try TestImages.webp(image)) == .webp)
        #expect(ImageFormat.detect(try TestImages.gif(image)) == .gif)
        #expect(ImageFormat.detect(Data("GIF87a".utf8) + Data(count: 10)) == .gif)
        #expect(ImageFormat.detect(Data("hello".utf8)) == nil)
        #expect(ImageFormat.detect(Data()) == nil)
    }

    @Test("HEIF brands are read from the ftyp box")
    func heifBrands() {
        func ftyp(_ major: String, _ compatible: [String]) -> Data {
            let body = Data(major.utf8) + Data(count: 4) + compatible.reduce(Data()) { $0 + Data($1.utf8) }
            return Data([0, 0, 0, UInt8(8 + body.count)]) + Data("ftyp".utf8) + body + Data(count: 8)
        }
        #expect(ImageFormat.detect(ftyp("heic", ["mif1", "heic"])) == .heic)
        #expect(ImageFormat.detect(ftyp("mif1", ["heix"])) == .heic)
        #expect(ImageFormat.detect(ftyp("avif", ["avif", "mif1"])) == .avif)
        #expect(ImageFormat.detect(ftyp("mif1", ["avif"])) == .avif)
        #expect(ImageFormat.detect(ftyp("isom", ["mp41"])) == nil)
    }

    @Test("a PNG with transparency becomes a WebP that keeps its alpha")
    func transparentPNG() async throws {
        let image = try TestImages.make(width: 300, height: 200, bands: 4) { x, _ in
            [200, 30, 30, x < 150 ? 0 : 255]
        }
        let result = try await processor.process(try TestImages.png(image), kind: .post)
        #expect(result.main.mimeType == "image/webp")
        #expect(result.main.fileExtension == "webp")
        #expect(ImageFormat.detect(result.main.data) == .webp)
        let output = try TestImages.decode(result.main.data)
        #expect(output.hasAlpha)
        #expect(try TestImages.mean(output, band: 3, in: PixelRect(x: 0, y: 0, width: 120, height: 200)) < 5)
        #expect(try TestImages.mean(output, band: 3, in: PixelRect(x: 180, y: 0, width: 120, height: 200)) > 250)
    }

    @Test("a PNG whose alpha is fully opaque becomes a JPEG")
    func opaqueAlphaPNG() async throws {
        let image = try TestImages.make(width: 300, height: 200, bands: 4) { _, _ in [10, 200, 10, 255] }
        let result = try await processor.process(try TestImages.png(image), kind: .post)
        #expect(result.main.mimeType == "image/jpeg")
        #expect(try TestImages.mean(try TestImages.decode(result.main.data), band: 1) > 190)
    }

    @Test("only the first frame of an animated GIF is used")
    func gifFirstFrame() async throws {
        // Two 120x80 frames stacked vertically: red, then blue.
        let frames = try TestImages.make(width: 120, height: 160) { _, y in y < 80 ? [255, 0, 0] : [0, 0, 255] }
        frames.setInt("page-height", 80)
        let gif = try TestImages.gif(frames)
        // The fixture really is animated: the loader reports two frames.
        #expect(try TestImages.decode(gif).pageCount == 2)
        let result = try await processor.process(gif, kind: .post)
        #expect(result.sourceFormat == .gif)
        #expect(result.main.width == 120 && result.main.height == 80)
        let output = try TestImages.decode(result.main.data)
        #expect(try TestImages.mean(output, band: 0) > 200)
        #expect(try TestImages.mean(output, band: 2) < 50)
    }

    @Test("a WebP upload is accepted")
    func webpInput() async throws {
        let result = try await processor.process(try TestImages.webp(try TestImages.gradient(width: 640, height: 480)), kind: .post)
        #expect(result.sourceFormat == .webp)
        #expect(result.main.width == 640 && result.main.mimeType == "image/jpeg")
    }

    @Test("HEIC and AVIF uploads are accepted when libheif can decode them", arguments: [
        (ImageFormat.heic, VIPS_FOREIGN_HEIF_COMPRESSION_HEVC), (ImageFormat.avif, VIPS_FOREIGN_HEIF_COMPRESSION_AV1),
    ])
    func heifInput(format: ImageFormat, compression: VipsForeignHeifCompression) async throws {
        let input = try TestImages.heif(try TestImages.gradient(width: 96, height: 64), compression: compression)
        #expect(ImageFormat.detect(input) == format)
        #expect(processor.detectFormat(input) == format)
        let result = try await processor.process(input, kind: .post)
        #expect(result.sourceFormat == format)
        #expect(result.main.width == 96 && result.main.height == 64)
        #expect(result.main.mimeType == "image/jpeg")
    }
}
