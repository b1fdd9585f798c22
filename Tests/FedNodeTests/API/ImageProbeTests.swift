import Foundation
import Testing
@testable import FedNode

/// Headers as cameras and encoders write them (only the bytes the probe reads).
@Suite("Image type and size from header bytes")
struct ImageProbeTests {
    static func riff(_ chunk: String, _ payload: [UInt8]) -> Data {
        Data(Array("RIFF".utf8) + [0x40, 0, 0, 0] + Array("WEBP".utf8) + Array(chunk.utf8) + [UInt8(payload.count), 0, 0, 0] + payload)
    }

    /// A JFIF file: SOI, an APP0 segment, a DQT segment with fill bytes before it, then SOF2.
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        + [0xFF, 0xFF, 0xDB, 0x00, 0x04, 0x00, 0x01]
        + [0xFF, 0xC2, 0x00, 0x11, 0x08, 0x03, 0x20, 0x04, 0xB0, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])

    @Test("JPEG, PNG, GIF and the three WebP headers give their type and size")
    func formats() {
        #expect(ImageProbe.probe(Self.jpeg) == ImageProbe(format: .jpeg, width: 1200, height: 800))
        #expect(ImageProbe.probe(StatusFixtures.png(width: 4032, height: 3024)) == ImageProbe(format: .png, width: 4032, height: 3024))
        let gif = Data(Array("GIF89a".utf8) + [0x40, 0x01, 0xF0, 0x00, 0xF7, 0, 0])
        #expect(ImageProbe.probe(gif) == ImageProbe(format: .gif, width: 320, height: 240))
        let lossy = Self.riff("VP8 ", [0x50, 0x2A, 0x00, 0x9D, 0x01, 0x2A, 0x80, 0x02, 0xE0, 0x01, 0, 0])
        #expect(ImageProbe.probe(lossy) == ImageProbe(format: .webp, width: 640, height: 480))
        // (640-1) | (480-1) << 14 = 0x0077C27F, little-endian.
        let lossless = Self.riff("VP8L", [0x2F, 0x7F, 0xC2, 0x77, 0x00, 0, 0])
        #expect(ImageProbe.probe(lossless) == ImageProbe(format: .webp, width: 640, height: 480))
        let extended = Self.riff("VP8X", [0x10, 0, 0, 0, 0x7F, 0x07, 0x00, 0x37, 0x04, 0x00])
        #expect(ImageProbe.probe(extended) == ImageProbe(format: .webp, width: 1920, height: 1080))
        #expect(ImageProbe.Format.jpeg.fileExtension == "jpg")
        #expect(ImageProbe.Format.webp.mimeType == "image/webp")
    }

    @Test("truncated headers, unknown types and zero sizes give nothing")
    func refusals() {
        #expect(ImageProbe.probe(Data()) == nil)
        #expect(ImageProbe.probe(Self.jpeg.prefix(Self.jpeg.count - 12)) == nil)
        #expect(ImageProbe.probe(StatusFixtures.png(width: 4, height: 4).prefix(20)) == nil)
        #expect(ImageProbe.probe(Data(Array("GIF89a".utf8) + [0x40])) == nil)
        #expect(ImageProbe.probe(Self.riff("VP8 ", [0x50, 0x2A, 0x00, 0x9D, 0x01])) == nil)
        #expect(ImageProbe.probe(Self.riff("ALPH", [0, 0, 0, 0, 0, 0, 0, 0, 0, 0])) == nil)
        #expect(ImageProbe.probe(Data("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)) == nil)
        #expect(ImageProbe.probe(Data(Array("BM".utf8) + [UInt8](repeating: 1, count: 60))) == nil)
        #expect(ImageProbe.probe(StatusFixtures.png(width: 0, height: 5)) == nil)
        // A JPEG whose segments end before any frame header.
        #expect(ImageProbe.probe(Data([0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02, 0x00])) == nil)
    }

    @Test("single byte ranges resolve against the file size")
    func ranges() {
        #expect(ByteRange.parse(nil, size: 10) == .none)
        #expect(ByteRange.parse("bytes=0-3", size: 10) == .range(0...3))
        #expect(ByteRange.parse("bytes=5-", size: 10) == .range(5...9))
        #expect(ByteRange.parse("bytes=8-100", size: 10) == .range(8...9))
        #expect(ByteRange.parse("bytes=-3", size: 10) == .range(7...9))
        #expect(ByteRange.parse("bytes=-30", size: 10) == .range(0...9))
        #expect(ByteRange.parse("bytes=10-", size: 10) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=-0", size: 10) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=0-0", size: 0) == .unsatisfiable)
        #expect(ByteRange.parse("bytes=4-2", size: 10) == .none)
        #expect(ByteRange.parse("bytes=0-1,3-4", size: 10) == .none)
        #expect(ByteRange.parse("items=0-1", size: 10) == .none)
        #expect(ByteRange.parse("bytes=x-1", size: 10) == .none)
    }
}
