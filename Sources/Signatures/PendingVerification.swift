/// A parsed, policy-checked signature waiting for its key: the caller fetches the key named by
/// `keyId` (asynchronously, through its cache) and then calls `verify(with:)`.
public struct PendingVerification: Sendable {
    /// Which signature scheme the request used.
    public enum Scheme: Sendable, Equatable {
        /// draft-cavage-http-signatures-12 (`Signature` or `Authorization: Signature`).
        case cavage
        /// RFC 9421 HTTP Message Signatures (`Signature-Input` and `Signature`).
        case rfc9421
    }

    /// The key the sender names: `keyId` (cavage) or `keyid` (RFC 9421).
    public var keyId: String
    /// The scheme the request used.
    public var scheme: Scheme
    /// The covered components, lowercased, in the order they were signed.
    public var coveredComponents: [String]
    /// The signing string (cavage) or signature base (RFC 9421) rebuilt from the request.
    public var signedText: String
    /// The signature bytes the sender sent.
    let signature: [UInt8]

    /// Checks the signature with `key` (RSASSA-PKCS1-v1_5 over SHA-256).
    public func verify(with key: RSAPublicKey) -> Bool {
        key.verify(signature: signature, for: Array(signedText.utf8))
    }
}
