@testable import Core
import CVips
import Foundation
import Testing

@testable import FedNode

/// Inputs the pipeline must refuse, and how it reports them.
@Suite("Refused inputs")
struct InputValidationTests {
    /// The processor under test, with production limits.
    let processor = MediaProcessor()

    @Test("a PNG declaring 20000x20000 is refused from its header")
    func hugePNGHeader() async throws {
        let png = PNGBuilder.claiming(width: 20000, height: 20000)
        #expect(png.count < 100)
        // A full decode of this file would fail as truncated (.notAnImage); only a
        // header-first check can report the declared size.
        await #expect(throws: MediaError.tooManyPixels(width: 20000, height: 20000)) {
            try await processor.process(png, kind: .post)
        }
    }

    @Test("the pixel limit is configurable and applies to real images")
    func configurablePixelLimit() async throws {
        let strict = MediaProcessor(limits: MediaLimits(maxPixels: 1_000_000))
        let input = try TestImages.jpeg(try TestImages.gradient(width: 1500, height: 800))
        await #expect(throws: MediaError.tooManyPixels(width: 1500, height: 800)) {
            try await strict.process(input, kind: .post)
        }
        let fits = try TestImages.jpeg(try TestImages.gradient(width: 1000, height: 1000))
        _ = try await strict.process(fits, kind: .post)
    }

    @Test("an input over the byte limit is refused before it is read")
    func tooManyBytes() async throws {
        let input = try TestImages.jpeg(try TestImages.noise(width: 200, height: 200))
        let small = MediaProcessor(limits: MediaLimits(maxBytes: input.count - 1))
        await #expect(throws: MediaError.tooLarge(bytes: input.count)) {
            try await small.process(input, kind: .post)
        }
    }

    @Test("a truncated JPEG is not an image")
    func truncatedJPEG() async throws {
        let whole = try TestImages.jpeg(try TestImages.noise(width: 400, height: 300))
        // The header is intact, so only a decode that checks for truncation can notice.
        let cut = whole.prefix(whole.count / 2)
        await #expect(throws: MediaError.notAnImage) {
            try await processor.process(Data(cut), kind: .post)
        }
    }

    @Test("a truncated PNG is not an image")
    func truncatedPNG() async throws {
        let whole = try TestImages.png(try TestImages.noise(width: 300, height: 300))
        await #expect(throws: MediaError.notAnImage) {
            try await processor.process(Data(whole.prefix(whole.count * 2 / 3)), kind: .avatar)
        }
    }

    @Test("a text file named photo.jpg is not an image")
    func textFile() async throws {
        let text = Data("This is not a picture, whatever its name says.\n".utf8)
        let named = FileManager.default.temporaryDirectory.appendingPathComponent("photo-\(UUID().uuidString).jpg")
        try text.write(to: named)
        defer { try? FileManager.default.removeItem(at: named) }
        await #expect(throws: MediaError.notAnImage) {
            try await processor.process(try Data(contentsOf: named), kind: .post)
        }
    }

    @Test("recognised formats FedNode refuses are unsupported", arguments: [
        Data("BM".utf8) + Data(count: 60),
        Data([0x49, 0x49, 0x2A, 0x00]) + Data(count: 60),
        Data("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8),
        Data([0, 0, 0, 0x18]) + Data("ftypmp42".utf8) + Data(count: 40),
    ])
    func unsupportedFormats(input: Data) async throws {
        await #expect(throws: MediaError.unsupportedType) {
            try await processor.process(input, kind: .post)
        }
    }

    @Test("a JPEG signature followed by garbage is not an image")
    func fakeJPEG() async throws {
        let fake = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data("garbage".utf8)
        await #expect(throws: MediaError.notAnImage) {
            try await processor.process(fake, kind: .post)
        }
    }

    @Test("every input error has a client-safe message and counts as invalid input")
    func messages() {
        let errors: [MediaError] = [
            .tooLarge(bytes: 1), .tooManyPixels(width: 1, height: 1), .unsupportedType,
            .notAnImage, .processingFailed("vips: /secret/path failed"),
        ]
        for error in errors {
            #expect(error.isInvalidInput)
            #expect(!error.message.contains("/secret"))
        }
        #expect(!MediaError.storageFailed("/data/media").isInvalidInput)
        // A node without a usable libvips: the server's fault, and its reason stays in the log.
        let unavailable = MediaError.unavailable("libvips (libvips.so.42) could not be loaded: /usr/lib/libvips.so.42")
        #expect(!unavailable.isInvalidInput)
        #expect(!unavailable.message.contains("/usr/lib"))
    }
}
