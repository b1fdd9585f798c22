import Foundation

/// Writes PNG files by hand (ISO/IEC 15948), so a test can declare any size without
/// producing the pixels.
enum PNGBuilder {
    /// A PNG whose IHDR claims `width` x `height` RGB but whose IDAT holds only a few
    /// bytes: a header-only reader sees the claimed size, a decoder finds it truncated.
    static func claiming(width: UInt32, height: UInt32) -> Data {
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        // IHDR: width, height, bit depth 8, colour type 2 (RGB), deflate, filter 0, no interlace.
        file += chunk("IHDR", be32(width) + be32(height) + [8, 2, 0, 0, 0])
        file += chunk("IDAT", zlibStored([0, 0, 0, 0, 0, 0, 0]))
        file += chunk("IEND", [])
        return Data(file)
    }

    private static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        return be32(UInt32(body.count)) + typed + be32(crc32(typed))
    }

    /// A zlib stream (RFC 1950) with one stored deflate block (RFC 1951 3.2.4).
    private static func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
        let length = UInt16(bytes.count)
        let header: [UInt8] = [0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
        return header + bytes + be32(adler32(bytes))
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    private static func be32(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
    }
}
