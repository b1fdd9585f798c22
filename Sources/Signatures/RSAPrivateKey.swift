import COpenSSL

/// An RSA private key, used to sign outgoing requests as an actor's `#main-key`.
///
/// Wraps an OpenSSL `EVP_PKEY` that is never mutated after `init`; OpenSSL 3 allows concurrent
/// signing with one key (openssl-threads(7)), so the class is `Sendable`.
public final class RSAPrivateKey: Sendable {
    nonisolated(unsafe) private let pkey: OpaquePointer
    /// The key as PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`), for storage.
    public let pkcs8PEM: String
    /// The matching public key, for the actor document.
    public let publicKey: RSAPublicKey

    /// Generates a fresh key pair with public exponent 65537.
    /// - Parameter bits: the modulus size; 2048 is what Mastodon uses.
    /// - Throws: `SignatureError.keyGenerationFailed`.
    public static func generate(bits: Int = 2048) throws(SignatureError) -> RSAPrivateKey {
        guard (1024...16384).contains(bits),
            let context = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil)
        else { throw .keyGenerationFailed }
        defer { EVP_PKEY_CTX_free(context) }
        var generated: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1,
            EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(bits)) == 1,
            EVP_PKEY_generate(context, &generated) == 1,
            let generated
        else {
            ERR_clear_error()
            throw .keyGenerationFailed
        }
        return try RSAPrivateKey(owning: generated)
    }

    /// Reads a PEM private key: PKCS#8 `PRIVATE KEY` or PKCS#1 `RSA PRIVATE KEY`.
    /// Encrypted keys are not supported.
    /// - Throws: `SignatureError.invalidKey` when the text is not an unencrypted RSA private key.
    public convenience init(pem: String) throws(SignatureError) {
        guard let (label, der) = PEM.decode(pem), label == "PRIVATE KEY" || label == "RSA PRIVATE KEY"
        else { throw .invalidKey }
        let decoded = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return d2i_AutoPrivateKey(nil, &cursor, buffer.count)
        }
        guard let decoded else {
            ERR_clear_error()
            throw .invalidKey
        }
        try self.init(owning: decoded)
    }

    /// Takes ownership of `key`; frees it if it is unusable.
    private init(owning key: OpaquePointer) throws(SignatureError) {
        guard EVP_PKEY_is_a(key, "RSA") == 1,
            let spki = collectDER({ i2d_PUBKEY(key, $0) }),
            let pkcs8 = Self.pkcs8DER(key),
            let publicKey = try? RSAPublicKey(spkiDER: spki)
        else {
            EVP_PKEY_free(key)
            ERR_clear_error()
            throw .invalidKey
        }
        pkey = key
        pkcs8PEM = PEM.encode(pkcs8, label: "PRIVATE KEY")
        self.publicKey = publicKey
    }

    deinit { EVP_PKEY_free(pkey) }

    /// Signs `data` with RSASSA-PKCS1-v1_5 over SHA-256 (`rsa-sha256`, `rsa-v1_5-sha256`).
    /// - Throws: `SignatureError.signingFailed`.
    public func sign(_ data: [UInt8]) throws(SignatureError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw .signingFailed }
        defer { EVP_MD_CTX_free(context) }
        var length = 0
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, pkey) == 1,
            EVP_DigestSign(context, nil, &length, data, data.count) == 1
        else { return try failSigning() }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, data, data.count) == 1 else {
            return try failSigning()
        }
        return Array(signature.prefix(length))
    }

    private func failSigning() throws(SignatureError) -> [UInt8] {
        ERR_clear_error()
        throw .signingFailed
    }

    private static func pkcs8DER(_ key: OpaquePointer) -> [UInt8]? {
        guard let info = EVP_PKEY2PKCS8(key) else { return nil }
        defer { PKCS8_PRIV_KEY_INFO_free(info) }
        return collectDER { i2d_PKCS8_PRIV_KEY_INFO(info, $0) }
    }
}
