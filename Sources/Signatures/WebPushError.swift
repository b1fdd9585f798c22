/// What can go wrong while encrypting or signing a Web Push message.
public enum WebPushError: Error, Sendable, Equatable {
    /// A key is not a P-256 key of the expected form (65-byte uncompressed point on the curve,
    /// 32-byte scalar matching it).
    case invalidKey
    /// The authentication secret is not 16 bytes (RFC 8291 3.2).
    case invalidAuthSecret
    /// OpenSSL could not generate a key pair.
    case keyGenerationFailed
    /// OpenSSL could not derive the ECDH shared secret.
    case keyAgreementFailed
    /// OpenSSL could not produce an ES256 signature.
    case signingFailed
    /// AES-128-GCM encryption failed, or the message does not fit one 4096-byte record.
    case encryptionFailed
}
