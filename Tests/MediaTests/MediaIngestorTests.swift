@testable import Core
import Foundation
import Testing

@testable import FedNode

/// Processing plus storage: what ends up on disk.
@Suite("Upload ingestion")
struct MediaIngestorTests {
    @Test("an accepted post stores its display copy and thumbnail")
    func storesOutputs() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let ingestor = MediaIngestor(processor: MediaProcessor(), store: MediaStore(root: directory.url))
        let input = try TestImages.jpeg(try TestImages.gradient(width: 2400, height: 1200))
        let stored = try await ingestor.ingest(input, kind: .post, focus: FocalPoint(x: 0.5, y: 0))
        #expect(stored.sourceFormat == .jpeg)
        #expect(stored.main.width == 1920 && stored.main.height == 960)
        #expect(stored.main.aspect == 2)
        let thumbnail = try #require(stored.thumbnail)
        #expect(thumbnail.width == 500 && thumbnail.height == 500)
        #expect(TemporaryDirectory.files(under: directory.url) == stored.paths.sorted())
        for variant in [stored.main, thumbnail] {
            let bytes = try Data(contentsOf: directory.url.appendingPathComponent(variant.file.path))
            #expect(SHA256.hexDigest(bytes) == variant.file.sha256)
            #expect(try TestImages.decode(bytes).width == variant.width)
        }
    }

    /// Inputs that must be refused: truncated JPEG, text, a 20000x20000 PNG header.
    private static func refusedInputs() throws -> [(Data, MediaError)] {
        let whole = try TestImages.jpeg(try TestImages.noise(width: 300, height: 300))
        return [
            (Data(whole.prefix(whole.count / 2)), .notAnImage),
            (Data("just some text, saved as upload.jpg\n".utf8), .notAnImage),
            (PNGBuilder.claiming(width: 20000, height: 20000), .tooManyPixels(width: 20000, height: 20000)),
        ]
    }

    @Test("refused uploads leave nothing in the store")
    func refusedLeavesNothing() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let root = directory.url.appendingPathComponent("media")
        let ingestor = MediaIngestor(processor: MediaProcessor(), store: MediaStore(root: root))
        for (input, expected) in try Self.refusedInputs() {
            await #expect(throws: expected) {
                try await ingestor.ingest(input, kind: .post)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: root.path))
        #expect(TemporaryDirectory.files(under: directory.url).isEmpty)
    }
}
