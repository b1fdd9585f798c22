import Foundation

/// What an image's first bytes say it is: the format (from its magic number, never from the
/// file name or the declared type) and its pixel size (from the header). Stands in until the
/// libvips pipeline decodes images for real; it reads headers only and never decodes pixels.
struct ImageProbe: Sendable, Equatable {
    /// The formats accepted for upload.
    enum Format: String, Sendable, CaseIterable {
        case jpeg, png, gif, webp

        /// MIME type.
        var mimeType: String { "image/\(rawValue)" }
        /// File extension used for storage.
        var fileExtension: String { self == .jpeg ? "jpg" : rawValue }
    }

    /// The format.
    var format: Format
    /// Width in pixels.
    var width: Int
    /// Height in pixels.
    var height: Int

    /// Probes `data`; `nil` when it is none of the accepted formats, or its header is
    /// truncated or claims a zero size.
    static func probe(_ data: Data) -> ImageProbe? {
        let bytes = ImageHeaderBytes(data)
        guard let format = format(of: bytes), let size = size(of: format, in: bytes), size.width > 0, size.height > 0 else { return nil }
        return ImageProbe(format: format, width: size.width, height: size.height)
    }

    /// The format announced by the magic number.
    static func format(of bytes: ImageHeaderBytes) -> Format? {
        if bytes.matches([0xFF, 0xD8, 0xFF], at: 0) { return .jpeg }
        if bytes.matches([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], at: 0) { return .png }
        if bytes.matches(Array("GIF87a".utf8), at: 0) || bytes.matches(Array("GIF89a".utf8), at: 0) { return .gif }
        if bytes.matches(Array("RIFF".utf8), at: 0), bytes.matches(Array("WEBP".utf8), at: 8) { return .webp }
        return nil
    }

    private static func size(of format: Format, in bytes: ImageHeaderBytes) -> (width: Int, height: Int)? {
        switch format {
        case .png:
            // PNG 11.2.2: the first chunk is IHDR, width and height as big-endian 32-bit.
            guard bytes.matches(Array("IHDR".utf8), at: 12), let w = bytes.uint32BE(16), let h = bytes.uint32BE(20) else { return nil }
            return (Int(w), Int(h))
        case .gif:
            // GIF89a, Logical Screen Descriptor: little-endian 16-bit width and height.
            guard let w = bytes.uint16LE(6), let h = bytes.uint16LE(8) else { return nil }
            return (Int(w), Int(h))
        case .webp: return webpSize(bytes)
        case .jpeg: return jpegSize(bytes)
        }
    }

    /// RFC 9649 (WebP): the first chunk is `VP8 ` (lossy), `VP8L` (lossless) or `VP8X` (extended).
    private static func webpSize(_ bytes: ImageHeaderBytes) -> (width: Int, height: Int)? {
        if bytes.matches(Array("VP8 ".utf8), at: 12) {
            // Key frame: 3-byte frame tag, start code 9D 01 2A, then 14-bit width and height.
            guard bytes.matches([0x9D, 0x01, 0x2A], at: 23), let w = bytes.uint16LE(26), let h = bytes.uint16LE(28) else { return nil }
            return (Int(w & 0x3FFF), Int(h & 0x3FFF))
        }
        if bytes.matches(Array("VP8L".utf8), at: 12) {
            // Signature 0x2F, then width-1 and height-1 as two 14-bit fields, little-endian.
            guard bytes.matches([0x2F], at: 20), let bits = bytes.uint32LE(21) else { return nil }
            return (Int(bits & 0x3FFF) + 1, Int((bits >> 14) & 0x3FFF) + 1)
        }
        if bytes.matches(Array("VP8X".utf8), at: 12) {
            // Flags and reserved bytes, then canvas width-1 and height-1 as 24-bit little-endian.
            guard let w = bytes.uint24LE(24), let h = bytes.uint24LE(27) else { return nil }
            return (Int(w) + 1, Int(h) + 1)
        }
        return nil
    }

    /// ITU T.81 B.1: walks the marker segments to the first start-of-frame (SOF0...SOF15 except
    /// DHT C4, JPG C8 and DAC CC), whose payload holds precision, height and width.
    private static func jpegSize(_ bytes: ImageHeaderBytes) -> (width: Int, height: Int)? {
        var offset = 2
        while true {
            guard bytes.matches([0xFF], at: offset) else { return nil }
            // Markers may be padded with extra 0xFF fill bytes (B.1.1.2).
            while bytes.matches([0xFF], at: offset + 1) { offset += 1 }
            guard let marker = bytes.byte(offset + 1) else { return nil }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                offset += 2
                continue
            }
            guard marker != 0xD9, marker != 0xDA, let length = bytes.uint16BE(offset + 2), length >= 2 else { return nil }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard let h = bytes.uint16BE(offset + 5), let w = bytes.uint16BE(offset + 7) else { return nil }
                return (Int(w), Int(h))
            }
            offset += 2 + Int(length)
        }
    }
}

/// Bounds-checked reads from a byte buffer: every read past the end is `nil`, so a truncated
/// header is refused rather than misread.
struct ImageHeaderBytes {
    private let bytes: [UInt8]

    /// A reader over `data`.
    init(_ data: Data) { bytes = Array(data.prefix(4 * 1024 * 1024)) }

    /// The byte at `offset`.
    func byte(_ offset: Int) -> UInt8? { offset >= 0 && offset < bytes.count ? bytes[offset] : nil }

    /// Whether `expected` appears at `offset`.
    func matches(_ expected: [UInt8], at offset: Int) -> Bool {
        offset >= 0 && offset + expected.count <= bytes.count && bytes[offset..<offset + expected.count].elementsEqual(expected)
    }

    /// Big-endian 16-bit.
    func uint16BE(_ offset: Int) -> UInt16? { read(offset, 2).map { UInt16($0[0]) << 8 | UInt16($0[1]) } }
    /// Little-endian 16-bit.
    func uint16LE(_ offset: Int) -> UInt16? { read(offset, 2).map { UInt16($0[1]) << 8 | UInt16($0[0]) } }
    /// Little-endian 24-bit.
    func uint24LE(_ offset: Int) -> UInt32? { read(offset, 3).map { UInt32($0[2]) << 16 | UInt32($0[1]) << 8 | UInt32($0[0]) } }
    /// Big-endian 32-bit.
    func uint32BE(_ offset: Int) -> UInt32? { read(offset, 4).map { $0.reduce(0) { $0 << 8 | UInt32($1) } } }
    /// Little-endian 32-bit.
    func uint32LE(_ offset: Int) -> UInt32? { read(offset, 4).map { $0.reversed().reduce(0) { $0 << 8 | UInt32($1) } } }

    private func read(_ offset: Int, _ count: Int) -> [UInt8]? {
        offset >= 0 && offset + count <= bytes.count ? Array(bytes[offset..<offset + count]) : nil
    }
}
