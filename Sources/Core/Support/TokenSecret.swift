import Foundation
import Signatures

/// The random secrets behind tokens, codes, links and device cookies: only their hash is stored.
package enum TokenSecret {
    /// Hex SHA-256 of a secret, as tokens and codes are stored.
    package static func hash(_ secret: String) -> String {
        SHA256.hexDigest(Data(secret.utf8))
    }

    /// A new random secret (URL-safe base64 of 32 random bytes).
    package static func new() -> String {
        Data(randomBytes(32)).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
