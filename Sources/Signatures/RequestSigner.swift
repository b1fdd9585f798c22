import Foundation

/// Signs outgoing requests the way Mastodon does, with draft-cavage-12 `rsa-sha256`.
///
/// Covers `(request-target) host date digest` (plus `content-type` when present) for requests
/// with a body and `(request-target) host date` for those without.
public struct RequestSigner: Sendable {
    /// The `keyId`, the URL of the actor's key, e.g. `https://host/users/alice#main-key`.
    public let keyId: String
    /// The actor's private key.
    public let privateKey: RSAPrivateKey

    /// Creates a signer for one actor's key.
    public init(keyId: String, privateKey: RSAPrivateKey) {
        self.keyId = keyId
        self.privateKey = privateKey
    }

    /// Adds `Host` (if missing), `Date` (from `now`), `Digest: SHA-256=...` (when a body is
    /// present) and `Signature` to `request`.
    /// - Parameters:
    ///   - request: the request to sign, modified in place.
    ///   - now: the signing time, written to `Date`.
    /// - Throws: `SignatureError.signingFailed` when OpenSSL cannot sign.
    public func sign(_ request: inout SignableRequest, now: Date = Date()) throws(SignatureError) {
        if request.header("host") == nil { request.headers.append((name: "Host", value: request.authority)) }
        request.setHeader("Date", HTTPDate.format(now))
        var covered = ["(request-target)", "host", "date"]
        if let body = request.body {
            request.setHeader("Digest", BodyDigest.digestValue(for: body))
            covered.append("digest")
            if request.header("content-type") != nil { covered.append("content-type") }
        }
        let signingString = try CavageSignature.signingString(for: request, headers: covered)
        let signature = try privateKey.sign(Array(signingString.utf8))
        let parameters = CavageSignature.Parameters(
            keyId: keyId, algorithm: "rsa-sha256", headers: covered, signature: signature)
        request.setHeader("Signature", CavageSignature.headerValue(parameters))
    }
}
