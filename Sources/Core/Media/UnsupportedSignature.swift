import Foundation

/// Magic numbers of image and media formats that are recognised but not accepted,
/// so they are reported as `unsupportedType` rather than "not an image".
package enum UnsupportedSignature {
    private static let prefixes: [[UInt8]] = [
        Array("BM".utf8),                                   // BMP
        [0x49, 0x49, 0x2A, 0x00], [0x4D, 0x4D, 0x00, 0x2A], // TIFF, both byte orders
        [0xFF, 0x0A],                                       // JPEG XL codestream
        [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20],   // JPEG XL container
        [0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20],   // JPEG 2000
        Array("8BPS".utf8),                                 // Photoshop
        [0x00, 0x00, 0x01, 0x00],                           // ICO
        Array("%PDF".utf8),
        Array("<svg".utf8), Array("<?xml".utf8),
    ]

    /// Whether the bytes start like a known image or media format FedNode refuses.
    /// - Parameter data: The raw upload.
    package static func matches(_ data: Data) -> Bool {
        let head = [UInt8](data.prefix(16))
        if prefixes.contains(where: { head.starts(with: $0) }) { return true }
        // Any other ISO BMFF file (MP4, MOV, 3GP, ...): ISO/IEC 14496-12 4.3.
        return head.count >= 8 && head[4..<8].elementsEqual("ftyp".utf8)
    }
}
