import Foundation

extension ImageFormat {
    /// Recognises an image container from its magic numbers only.
    ///
    /// File names and client-declared types are never consulted.
    /// - Parameter data: The raw upload.
    /// - Returns: The container, or `nil` when the bytes match no accepted signature.
    public static func detect(_ data: Data) -> ImageFormat? {
        let bytes = [UInt8](data.prefix(32))
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) {
            return .gif
        }
        if bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8),
           bytes[8..<12].elementsEqual("WEBP".utf8) {
            return .webp
        }
        return isoMediaFormat(data)
    }

    /// HEIF family: an ISO BMFF `ftyp` box (ISO/IEC 14496-12 4.3) whose major or
    /// compatible brands name an image brand (ISO/IEC 23008-12 10, AV1-ISOBMFF 2).
    private static func isoMediaFormat(_ data: Data) -> ImageFormat? {
        let bytes = [UInt8](data.prefix(256))
        guard bytes.count >= 16, bytes[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        let boxSize = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        guard boxSize >= 16, boxSize <= bytes.count else { return nil }
        // major_brand at 8, minor_version at 12, compatible_brands from 16.
        var brands = [String(decoding: bytes[8..<12], as: UTF8.self)]
        for start in stride(from: 16, to: boxSize - 3, by: 4) {
            brands.append(String(decoding: bytes[start..<start + 4], as: UTF8.self))
        }
        if brands.contains(where: { avifBrands.contains($0) }) { return .avif }
        if brands.contains(where: { heicBrands.contains($0) }) { return .heic }
        return nil
    }

    private static let avifBrands: Set<String> = ["avif", "avis"]
    private static let heicBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]
}
