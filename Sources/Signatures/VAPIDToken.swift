import Foundation

/// The `Authorization` header of Voluntary Application Server Identification (RFC 8292):
/// `vapid t=<JWT>, k=<public key>`, the JWT signed with ES256 by the node's VAPID key.
public enum VAPIDToken {
    /// Builds the header value for a push to `endpoint`.
    /// - Parameters:
    ///   - endpoint: The subscription's endpoint URL; the JWT's `aud` is its origin (RFC 8292 2).
    ///   - subject: A `mailto:` or `https:` contact for the push service operator (`sub`).
    ///   - key: The node's VAPID key pair.
    ///   - now: The current time; the token expires 12 hours later (at most 24 are allowed).
    /// - Returns: The header value, or `nil` when the endpoint has no origin.
    /// - Throws: `WebPushError.signingFailed` when OpenSSL cannot sign.
    public static func authorization(endpoint: String, subject: String, key: P256Key, now: Date) throws(WebPushError) -> String? {
        guard let audience = origin(of: endpoint) else { return nil }
        let header = #"{"typ":"JWT","alg":"ES256"}"#
        let expiry = Int(now.timeIntervalSince1970) + 12 * 3600
        let claims: [String: Any] = ["aud": audience, "exp": expiry, "sub": subject]
        guard let claimsJSON = try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]) else { return nil }
        let signingInput = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode([UInt8](claimsJSON))
        let signature = try key.signES256(Array(signingInput.utf8))
        return "vapid t=\(signingInput).\(Base64URL.encode(signature)), k=\(Base64URL.encode(key.publicKey))"
    }

    /// The origin (`scheme://host[:port]`) of a URL, the port only when it is not the default.
    public static func origin(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else { return nil }
        let defaultPort = scheme == "https" ? 443 : 80
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        if let port = components.port, port != defaultPort { return "\(scheme)://\(bracketed):\(port)" }
        return "\(scheme)://\(bracketed)"
    }
}
