import Foundation
import Signatures

/// Hex SHA-256 for content addresses (media files, cache keys), computed by OpenSSL.
package enum SHA256 {
    /// The lower-case hex SHA-256 of `data`.
    package static func hexDigest(_ data: Data) -> String {
        Digest.sha256Hex([UInt8](data))
    }
}
