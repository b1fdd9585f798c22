import COpenSSL

/// An RSA public key, as published in an actor's `publicKey.publicKeyPem`.
///
/// Wraps an OpenSSL `EVP_PKEY` that is never mutated after `init`; OpenSSL 3 allows concurrent
/// verification with one key (openssl-threads(7)), so the class is `Sendable`.
public final class RSAPublicKey: Sendable {
    nonisolated(unsafe) private let pkey: OpaquePointer

    /// Reads a PEM public key: SPKI `PUBLIC KEY` (what Mastodon publishes) or PKCS#1
    /// `RSA PUBLIC KEY` (what some older servers publish).
    /// - Throws: `SignatureError.invalidKey` when the text is not an RSA public key.
    public convenience init(pem: String) throws(SignatureError) {
        guard let (label, der) = PEM.decode(pem) else { throw .invalidKey }
        switch label {
        case "PUBLIC KEY": try self.init(spkiDER: der)
        case "RSA PUBLIC KEY": try self.init(der: der, decode: { d2i_PublicKey(EVP_PKEY_RSA, nil, &$0, $1) })
        default: throw .invalidKey
        }
    }

    /// Reads a DER SubjectPublicKeyInfo (RFC 5280 4.1.2.7).
    convenience init(spkiDER der: [UInt8]) throws(SignatureError) {
        try self.init(der: der, decode: { d2i_PUBKEY(nil, &$0, $1) })
    }

    private init(
        der: [UInt8],
        decode: (inout UnsafePointer<UInt8>?, Int) -> OpaquePointer?
    ) throws(SignatureError) {
        let decoded = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return decode(&cursor, buffer.count)
        }
        guard let decoded else {
            ERR_clear_error()
            throw .invalidKey
        }
        guard EVP_PKEY_is_a(decoded, "RSA") == 1 else {
            EVP_PKEY_free(decoded)
            throw .invalidKey
        }
        pkey = decoded
    }

    deinit { EVP_PKEY_free(pkey) }

    /// The modulus size in bits (2048 for keys we generate).
    public var bits: Int { Int(EVP_PKEY_get_bits(pkey)) }

    /// The key as SPKI PEM: `-----BEGIN PUBLIC KEY-----`, 64-character lines, trailing newline.
    public var spkiPEM: String {
        // i2d_PUBKEY cannot fail for a key that decoded or was generated successfully.
        let der = collectDER { i2d_PUBKEY(pkey, $0) } ?? []
        return PEM.encode(der, label: "PUBLIC KEY")
    }

    /// Checks an RSASSA-PKCS1-v1_5 signature over SHA-256 (`rsa-sha256`, `rsa-v1_5-sha256`).
    public func verify(signature: [UInt8], for data: [UInt8]) -> Bool {
        verify(signature, data, digest: EVP_sha256(), pss: false)
    }

    /// Checks an RSASSA-PSS signature with SHA-512, MGF1-SHA-512 and a 64-byte salt
    /// (`rsa-pss-sha512`, RFC 9421 3.3.1).
    public func verifyPSS(signature: [UInt8], for data: [UInt8]) -> Bool {
        verify(signature, data, digest: EVP_sha512(), pss: true)
    }

    private func verify(_ signature: [UInt8], _ data: [UInt8], digest: OpaquePointer?, pss: Bool) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer {
            EVP_MD_CTX_free(context)
            ERR_clear_error()
        }
        var keyContext: OpaquePointer?
        guard EVP_DigestVerifyInit(context, &keyContext, digest, nil, pkey) == 1 else { return false }
        if pss {
            guard EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PSS_PADDING) == 1,
                EVP_PKEY_CTX_set_rsa_pss_saltlen(keyContext, 64) == 1,
                EVP_PKEY_CTX_set_rsa_mgf1_md(keyContext, EVP_sha512()) == 1
            else { return false }
        }
        return EVP_DigestVerify(context, signature, signature.count, data, data.count) == 1
    }
}
