import Foundation

/// An image container FedNode accepts, as recognised from the file's leading bytes.
public enum ImageFormat: String, Sendable, Equatable, CaseIterable {
    /// JPEG/JFIF/EXIF (`FF D8 FF`).
    case jpeg
    /// PNG (`89 50 4E 47 0D 0A 1A 0A`).
    case png
    /// WebP (`RIFF....WEBP`).
    case webp
    /// GIF87a/GIF89a; only the first frame is used.
    case gif
    /// HEIF with an HEVC brand (`ftyp` heic, heix, mif1, ...).
    case heic
    /// HEIF with an AV1 brand (`ftyp` avif, avis).
    case avif

    /// The IANA media type of the container.
    public var mimeType: String {
        "image/\(rawValue)"
    }

    /// Whether decoding relies on optional libheif codecs that may be missing.
    public var needsHeifCodec: Bool {
        self == .heic || self == .avif
    }
}
