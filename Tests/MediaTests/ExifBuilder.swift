import Foundation

/// Writes a minimal little-endian EXIF block (CIPA DC-008, TIFF 6.0 layout) carrying a
/// camera make, an orientation and a GPS position, prefixed `Exif\0\0` as in APP1.
enum ExifBuilder {
    /// The camera make written into IFD0; tests search output bytes for it.
    static let make = "FedNodeTestCam"

    /// Builds the block.
    /// - Parameters:
    ///   - orientation: EXIF orientation, 1-8.
    ///   - latitude: Degrees, minutes, seconds north.
    ///   - longitude: Degrees, minutes, seconds east.
    static func block(orientation: UInt16, latitude: [UInt32], longitude: [UInt32]) -> Data {
        // Layout: header(8) | IFD0 (3 entries) | Make text | GPS IFD (5 entries) | rationals
        let ifd0Offset = 8
        let ifd0Size = 2 + 3 * 12 + 4
        let makeOffset = ifd0Offset + ifd0Size
        let makeBytes = Array(make.utf8) + [0]
        let gpsOffset = makeOffset + makeBytes.count
        let gpsSize = 2 + 5 * 12 + 4
        let latitudeOffset = gpsOffset + gpsSize
        let longitudeOffset = latitudeOffset + 24

        var tiff = Array("II".utf8) + le16(42) + le32(UInt32(ifd0Offset))
        tiff += le16(3)
        tiff += entry(tag: 0x010F, type: 2, count: UInt32(makeBytes.count), value: le32(UInt32(makeOffset)))
        tiff += entry(tag: 0x0112, type: 3, count: 1, value: le16(orientation) + [0, 0])
        tiff += entry(tag: 0x8825, type: 4, count: 1, value: le32(UInt32(gpsOffset)))
        tiff += le32(0)
        tiff += makeBytes
        tiff += le16(5)
        tiff += entry(tag: 0x0000, type: 1, count: 4, value: [2, 3, 0, 0])
        tiff += entry(tag: 0x0001, type: 2, count: 2, value: Array("N".utf8) + [0, 0, 0])
        tiff += entry(tag: 0x0002, type: 5, count: 3, value: le32(UInt32(latitudeOffset)))
        tiff += entry(tag: 0x0003, type: 2, count: 2, value: Array("E".utf8) + [0, 0, 0])
        tiff += entry(tag: 0x0004, type: 5, count: 3, value: le32(UInt32(longitudeOffset)))
        tiff += le32(0)
        tiff += rationals(latitude) + rationals(longitude)
        return Data(Array("Exif".utf8) + [0, 0] + tiff)
    }

    private static func entry(tag: UInt16, type: UInt16, count: UInt32, value: [UInt8]) -> [UInt8] {
        le16(tag) + le16(type) + le32(count) + value
    }

    private static func rationals(_ values: [UInt32]) -> [UInt8] {
        values.flatMap { le32($0) + le32(1) }
    }

    private static func le16(_ value: UInt16) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8)]
    }

    private static func le32(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
