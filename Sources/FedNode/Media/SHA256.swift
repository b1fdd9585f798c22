import Foundation
import Signatures

/// Hex SHA-256 for content addresses (media files, cache keys), computed by OpenSSL.
enum SHA256 {
    /// The lower-case hex SHA-256 of `data`.
    static func hexDigest(_ data: Data) -> String {
        Digest.sha256([UInt8](data)).map { String(format: "%02x", $0) }.joined()
    }
}
