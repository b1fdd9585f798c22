/// Everything that can go wrong in the Signatures target: keys, digests, HTTP signatures and
/// password hashes. Callers map these to HTTP statuses in one place (401 for a bad signature).
public enum SignatureError: Error, Sendable, Equatable {
    /// The PEM or DER text is not an RSA key of the expected kind.
    case invalidKey
    /// OpenSSL could not generate a new RSA key pair.
    case keyGenerationFailed
    /// OpenSSL could not produce a signature with the private key.
    case signingFailed
    /// The `Signature`, `Authorization` or `Signature-Input` value cannot be parsed; the text says why.
    case malformedSignatureHeader(String)
    /// The request carries no HTTP signature at all.
    case missingSignature
    /// The signature or digest algorithm named by the sender is not one we accept.
    case unsupportedAlgorithm(String)
    /// A header (or pseudo-header) named in the covered list is absent from the request.
    case missingHeader(String)
    /// A covered component is one this implementation cannot compute (for example `@status` on a request).
    case unsupportedComponent(String)
    /// The body does not match its `Digest` or `Content-Digest` header.
    case digestMismatch
    /// The request has a body but no `Digest` or `Content-Digest` header.
    case missingDigest
    /// The `Date` header or `(created)`/`created` parameter cannot be parsed.
    case invalidDate(String)
    /// The signature is too old, too far in the future, or past its `expires` time.
    case dateOutOfRange
    /// The signature does not cover a component our policy requires; the text names it.
    case componentsNotCovered(String)
    /// OpenSSL's scrypt key derivation failed (for example, parameters beyond the memory limit).
    case keyDerivationFailed
    /// The stored password hash is not in the `$scrypt$ln=..,r=..,p=..$salt$hash` format.
    case invalidPasswordHash
}
