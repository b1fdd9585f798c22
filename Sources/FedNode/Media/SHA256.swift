import Foundation
import Signatures

/// Hex SHA-256 for content addresses (media files, cache keys), computed by OpenSSL.
enum SHA256 {
    /// The lower-case hex SHA-256 of `data`.
    static func hexDigest(_ data: Data) -> String {
        Digest.sha256Hex([UInt8](data))
    }
}
