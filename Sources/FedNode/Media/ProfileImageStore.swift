import Foundation
import Signatures

/// The image formats accepted for avatars and headers, recognised by their magic numbers
/// (never by the client's file name or declared type).
enum ProfileImageFormat: String, Sendable, CaseIterable {
    /// JPEG (`FF D8 FF`).
    case jpeg
    /// PNG (the 8-byte PNG signature).
    case png
    /// GIF (`GIF87a` or `GIF89a`).
    case gif
    /// WebP (`RIFF....WEBP`).
    case webp

    /// The format `data` starts like, or `nil`.
    init?(sniffing data: Data) {
        let bytes = [UInt8](data.prefix(12))
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        if starts([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) {
            self = .gif
        } else if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) {
            self = .webp
        } else {
            return nil
        }
    }

    /// The file extension used when storing.
    var fileExtension: String { self == .jpeg ? "jpg" : rawValue }

    /// The MIME type.
    var mediaType: String { "image/\(rawValue)" }
}

/// Keeps profile images (avatars and headers) content-addressed under
/// `<dataDirectory>/media/profile/<sha256>.<ext>`, so the same image is stored once and a
/// half-written file is never visible. The stored reference is the path relative to `media/`,
/// which `EntityRenderer.mediaURL` and `AccountToAS` turn into `<base>/media/...`.
struct ProfileImageStore: Sendable {
    /// Largest image accepted.
    static let maxBytes = 16 * 1024 * 1024
    /// The `media` directory.
    let mediaDirectory: String

    /// A store under `dataDirectory/media`.
    init(dataDirectory: String) {
        mediaDirectory = (dataDirectory as NSString).appendingPathComponent("media")
    }

    /// Checks and stores an uploaded image.
    /// - Parameters:
    ///   - data: The uploaded bytes.
    ///   - label: `Avatar` or `Header`, for error messages.
    /// - Returns: The reference to keep on the account, `profile/<sha256>.<ext>`.
    /// - Throws: `NodeError.validation` for an unknown format or an oversized file; `.internal`
    ///   when the file cannot be written.
    func store(_ data: Data, label: String) throws(NodeError) -> String {
        guard data.count <= Self.maxBytes else {
            throw .validation("Validation failed: \(label) file size must be less than \(Self.maxBytes / 1024 / 1024) MB")
        }
        guard let format = ProfileImageFormat(sniffing: data) else {
            throw .validation("Validation failed: \(label) content type is invalid (JPEG, PNG, GIF or WebP expected)")
        }
        let hash = Digest.sha256(Array(data)).map { String(format: "%02x", $0) }.joined()
        let relative = "profile/\(hash).\(format.fileExtension)"
        let directory = (mediaDirectory as NSString).appendingPathComponent("profile")
        let final = (mediaDirectory as NSString).appendingPathComponent(relative)
        if FileManager.default.fileExists(atPath: final) { return relative }
        let temporary = (directory as NSString).appendingPathComponent(".upload-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: temporary))
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw .internal("writing profile image: \(error)")
        }
        // rename(2) replaces atomically: readers see the whole file or none.
        guard rename(temporary, final) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(atPath: temporary)
            throw .internal("storing profile image: errno \(code)")
        }
        return relative
    }
}

extension NodeURLs {
    /// The public URL of a stored profile image reference: absolute URLs (remote accounts) as
    /// they are, data-directory paths (`profile/<sha256>.jpg`) under `/media/`.
    func profileImageURL(_ reference: String?) -> String? {
        guard let reference, !reference.isEmpty else { return nil }
        if reference.hasPrefix("https://") || reference.hasPrefix("http://") { return reference }
        return "\(base)/media/\(reference)"
    }
}
