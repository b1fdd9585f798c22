@testable import Core
import CVips
import Foundation
import Testing

@testable import FedNode

/// EXIF orientation and ICC profiles are applied; every metadata block is then removed.
@Suite("Metadata is applied, then stripped")
struct MetadataStrippingTests {
    /// The processor under test, with production limits.
    let processor = MediaProcessor()

    /// A 600x400 stored frame, black on top and white below, tagged "rotate 90 CW" and
    /// carrying EXIF with GPS, XMP and IPTC blocks.
    private func taggedPhoto() throws -> Data {
        let image = try TestImages.make(width: 600, height: 400) { _, y in y < 200 ? [0, 0, 0] : [255, 255, 255] }
        let exif = ExifBuilder.block(orientation: 6, latitude: [59, 19, 45], longitude: [18, 4, 7])
        TestImages.attach("exif-data", exif, to: image)
        image.setInt("orientation", 6)
        let xmp = #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="59,19.75N"/></rdf:RDF></x:xmpmeta>"#
        TestImages.attach("xmp-data", Data(xmp.utf8), to: image)
        let caption = Array("secret caption".utf8)
        let iptc = Array("Photoshop 3.0".utf8) + [0] + Array("8BIM".utf8) + [0x04, 0x04, 0, 0, 0, 0, 0, UInt8(5 + caption.count)]
            + [0x1C, 0x02, 0x78, 0, UInt8(caption.count)] + caption
        TestImages.attach("iptc-data", Data(iptc), to: image)
        return try TestImages.jpeg(image)
    }

    @Test("the fixture really carries GPS, XMP, IPTC and orientation 6")
    func fixtureCarriesMetadata() throws {
        let input = try TestImages.decode(try taggedPhoto())
        #expect(input.hasField("exif-ifd3-GPSLatitude"))
        #expect(input.hasField("xmp-data"))
        #expect(input.hasField("iptc-data"))
        #expect(input.orientation == 6)
        #expect(input.width == 600 && input.height == 400)
    }

    @Test("orientation 6 comes out upright with width and height swapped")
    func orientationIsApplied() async throws {
        let result = try await processor.process(try taggedPhoto(), kind: .post)
        #expect(result.main.width == 400)
        #expect(result.main.height == 600)
        let output = try TestImages.decode(result.main.data)
        // Rotating 90 degrees clockwise puts the stored bottom (white) on the left.
        let left = try TestImages.mean(output, in: PixelRect(x: 20, y: 0, width: 160, height: 600))
        let right = try TestImages.mean(output, in: PixelRect(x: 220, y: 0, width: 160, height: 600))
        #expect(left > 230)
        #expect(right < 25)
    }

    @Test("no EXIF, GPS, XMP or IPTC survives in any output", arguments: MediaKind.allCases)
    func metadataIsStripped(kind: MediaKind) async throws {
        let result = try await processor.process(try taggedPhoto(), kind: kind)
        for variant in [result.main] + (result.thumbnail.map { [$0] } ?? []) {
            let output = try TestImages.decode(variant.data)
            #expect(TestImages.leakingFields(output).isEmpty)
            #expect(output.orientation == 1)
            let markers = JPEGSegments.markers(variant.data)
            #expect(!markers.contains(0xE1), "APP1 (EXIF/XMP) present")
            #expect(!markers.contains(0xED), "APP13 (IPTC) present")
            for needle in ["Exif", ExifBuilder.make, "ns.adobe.com", "Photoshop 3.0", "secret caption"] {
                #expect(variant.data.range(of: Data(needle.utf8)) == nil, "found \(needle)")
            }
        }
    }

    @Test("an embedded Display P3 profile is converted to sRGB, then dropped")
    func iccProfileIsConverted() async throws {
        let red = try TestImages.make(width: 64, height: 64) { _, _ in [255, 0, 0] }
        let p3 = try red.derive { fn_vips_icc_transform_from_srgb($0, $1, "p3") }
        let input = try TestImages.jpeg(p3, quality: 100)
        // Read naively, without the profile, these pixels are a dull red (~234, 51, 34).
        let raw = try TestImages.decode(input)
        #expect(raw.hasField("icc-profile-data"))
        #expect(try TestImages.mean(raw, band: 1) > 40)

        let result = try await processor.process(input, kind: .avatar)
        let output = try TestImages.decode(result.main.data)
        #expect(!output.hasField("icc-profile-data"))
        #expect(!JPEGSegments.markers(result.main.data).contains(0xE2))
        #expect(try TestImages.mean(output, band: 0) > 245)
        #expect(try TestImages.mean(output, band: 1) < 15)
        #expect(try TestImages.mean(output, band: 2) < 15)
    }
}
