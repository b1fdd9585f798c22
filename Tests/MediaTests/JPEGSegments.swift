import Foundation

/// Lists the marker segments of a JPEG up to the start of scan (ITU T.81 B.1.1).
enum JPEGSegments {
    /// Marker codes (the byte after `FF`) in file order, stopping at SOS.
    static func markers(_ data: Data) -> [UInt8] {
        let bytes = [UInt8](data)
        var markers: [UInt8] = []
        var index = 2
        while index + 4 <= bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            markers.append(marker)
            if marker == 0xDA { break }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            index += 2 + length
        }
        return markers
    }
}
