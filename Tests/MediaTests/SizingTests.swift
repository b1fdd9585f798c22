@testable import Core
import CVips
import Foundation
import Testing

@testable import FedNode

/// Output sizes per kind, no upscaling of posts, and focal-point crops.
@Suite("Output sizes, crops and focal points")
struct SizingTests {
    /// The processor under test, with production limits.
    let processor = MediaProcessor()

    private func jpeg(width: Int, height: Int) throws -> Data {
        try TestImages.jpeg(try TestImages.gradient(width: width, height: height))
    }

    /// Checks the reported size against the encoded file's real size.
    private func expectSize(_ variant: ImageVariant?, _ width: Int, _ height: Int) throws {
        let variant = try #require(variant)
        #expect(variant.width == width && variant.height == height)
        let decoded = try TestImages.decode(variant.data)
        #expect(decoded.width == width && decoded.height == height)
        #expect(variant.aspect == Double(width) / Double(height))
    }

    @Test("a 3000x2000 post gets a 1920x1280 display copy and a 500x500 thumbnail")
    func largePost() async throws {
        let result = try await processor.process(try jpeg(width: 3000, height: 2000), kind: .post)
        try expectSize(result.main, 1920, 1280)
        try expectSize(result.thumbnail, 500, 500)
        #expect(result.sourceWidth == 3000 && result.sourceHeight == 2000)
    }

    @Test("a portrait post is bounded by its height")
    func portraitPost() async throws {
        let result = try await processor.process(try jpeg(width: 1000, height: 2500), kind: .post)
        try expectSize(result.main, 768, 1920)
        try expectSize(result.thumbnail, 500, 500)
    }

    @Test("an 800x600 post is never enlarged")
    func smallPostIsNotUpscaled() async throws {
        let result = try await processor.process(try jpeg(width: 800, height: 600), kind: .post)
        try expectSize(result.main, 800, 600)
        try expectSize(result.thumbnail, 500, 500)
    }

    @Test("a post smaller than the thumbnail keeps its pixels and gets a square crop")
    func tinyPostThumbnail() async throws {
        let result = try await processor.process(try jpeg(width: 300, height: 200), kind: .post)
        try expectSize(result.main, 300, 200)
        try expectSize(result.thumbnail, 200, 200)
    }

    @Test("avatars are 400x400 whatever the input", arguments: [(800, 600), (3000, 2000), (200, 300)])
    func avatar(width: Int, height: Int) async throws {
        let result = try await processor.process(try jpeg(width: width, height: height), kind: .avatar)
        try expectSize(result.main, 400, 400)
        #expect(result.thumbnail == nil)
    }

    @Test("headers are 1500x500 whatever the input", arguments: [(800, 600), (3000, 2000), (1500, 500)])
    func header(width: Int, height: Int) async throws {
        let result = try await processor.process(try jpeg(width: width, height: height), kind: .header)
        try expectSize(result.main, 1500, 500)
        #expect(result.thumbnail == nil)
    }

    /// 1000x500, left half black, right half white.
    private func splitLeftRight() throws -> Data {
        try TestImages.jpeg(try TestImages.make(width: 1000, height: 500) { x, _ in x < 500 ? [0, 0, 0] : [255, 255, 255] })
    }

    private func thumbnailMean(_ input: Data, focus: FocalPoint?) async throws -> Double {
        let result = try await processor.process(input, kind: .post, focus: focus)
        return try TestImages.mean(try TestImages.decode(try #require(result.thumbnail).data))
    }

    @Test("focusing right moves the thumbnail onto the white half")
    func focusRight() async throws {
        let input = try splitLeftRight()
        #expect(try await thumbnailMean(input, focus: FocalPoint(x: 1, y: 0)) > 245)
        #expect(try await thumbnailMean(input, focus: FocalPoint(x: -1, y: 0)) < 10)
        let centred = try await thumbnailMean(input, focus: nil)
        #expect(centred > 100 && centred < 155)
    }

    @Test("focal y grows upwards, as in Mastodon")
    func focusUp() async throws {
        let topWhite = try TestImages.jpeg(try TestImages.make(width: 500, height: 1000) { _, y in
            y < 500 ? [255, 255, 255] : [0, 0, 0]
        })
        #expect(try await thumbnailMean(topWhite, focus: FocalPoint(x: 0, y: 1)) > 245)
        #expect(try await thumbnailMean(topWhite, focus: FocalPoint(x: 0, y: -1)) < 10)
    }

    @Test("focus also steers avatar and header crops")
    func focusSteersAvatar() async throws {
        let result = try await processor.process(try splitLeftRight(), kind: .avatar, focus: FocalPoint(x: 0.9, y: 0))
        #expect(try TestImages.mean(try TestImages.decode(result.main.data)) > 245)
    }

    @Test("outputs of opaque inputs are progressive JPEGs")
    func progressiveJpeg() async throws {
        let result = try await processor.process(try jpeg(width: 640, height: 480), kind: .post)
        #expect(result.main.mimeType == "image/jpeg")
        #expect(result.main.fileExtension == "jpg")
        // SOF2 (0xC2) marks a progressive DCT frame, SOF0 (0xC0) a baseline one.
        #expect(JPEGSegments.markers(result.main.data).contains(0xC2))
    }

    @Test("JPEGs decode at the smallest DCT scale that still covers every output", arguments: [
        (4032, 3024, MediaKind.post, 2), (3000, 2000, .post, 1), (8000, 6000, .post, 4), (3024, 4032, .post, 2),
        (6000, 4000, .avatar, 8), (300, 200, .avatar, 1), (6000, 4000, .header, 4), (1600, 1200, .avatar, 2),
    ])
    func loadShrink(width: Int, height: Int, kind: MediaKind, shrink: Int) {
        #expect(ImagePipeline.loadShrink(source: (width, height), kind: kind) == shrink)
    }

    @Test("a JPEG shrunk on load still gives full-size outputs, upright, and reports the original's size")
    func shrinkOnLoadKeepsOutputsAndOrientation() async throws {
        // 1600x1200 stored, black on top, tagged "rotate 90 CW": upright it is 1200x1600.
        let image = try TestImages.make(width: 1600, height: 1200) { _, y in y < 600 ? [0, 0, 0] : [255, 255, 255] }
        image.setInt("orientation", 6)
        let rotated = try TestImages.jpeg(image)
        let avatar = try await processor.process(rotated, kind: .avatar)
        try expectSize(avatar.main, 400, 400)
        #expect(avatar.sourceWidth == 1200 && avatar.sourceHeight == 1600)
        let output = try TestImages.decode(avatar.main.data)
        // The stored bottom (white) is on the left once upright.
        #expect(try TestImages.mean(output, in: PixelRect(x: 20, y: 0, width: 160, height: 400)) > 230)
        #expect(try TestImages.mean(output, in: PixelRect(x: 220, y: 0, width: 160, height: 400)) < 25)
        let post = try await processor.process(try jpeg(width: 3840, height: 2400), kind: .post)
        try expectSize(post.main, 1920, 1200)
        try expectSize(post.thumbnail, 500, 500)
        #expect(post.sourceWidth == 3840 && post.sourceHeight == 2400)
    }
}
