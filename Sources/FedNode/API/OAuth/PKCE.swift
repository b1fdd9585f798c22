import Core
import Foundation
import Signatures

/// Proof Key for Code Exchange (RFC 7636): the app proves at the token endpoint that it is the
/// one that started the authorization, so an intercepted code is useless.
enum PKCE {
    /// Whether `value` is a well-formed verifier or challenge: 43 to 128 characters of
    /// `[A-Za-z0-9-._~]` (RFC 7636 4.1, 4.2).
    static func isWellFormed(_ value: String) -> Bool {
        (43...128).contains(value.utf8.count) && value.utf8.allSatisfy { byte in
            (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
        }
    }

    /// Whether `verifier` answers `challenge` under `method` (RFC 7636 4.6):
    /// `S256` is `BASE64URL(SHA256(verifier)) == challenge`, `plain` is equality.
    static func verify(_ verifier: String, challenge: String, method: String) -> Bool {
        guard isWellFormed(verifier) else { return false }
        switch method {
        case "S256": return OAuthClients.equalInConstantTime(s256(verifier), challenge)
        case "plain": return OAuthClients.equalInConstantTime(verifier, challenge)
        default: return false
        }
    }

    /// `BASE64URL(SHA256(ASCII(verifier)))` without padding.
    static func s256(_ verifier: String) -> String {
        Data(Digest.sha256(Array(verifier.utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
