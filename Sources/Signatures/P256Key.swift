import COpenSSL
import Foundation

/// A NIST P-256 key (secp256r1, prime256v1) for Web Push: the node's VAPID key (RFC 8292),
/// the per-message key of RFC 8291 and the subscription's `p256dh` public key.
///
/// Wraps an OpenSSL `EVP_PKEY` that is never mutated after `init`; OpenSSL 3 allows concurrent
/// use of one key (openssl-threads(7)), so the class is `Sendable`.
public final class P256Key: Sendable {
    nonisolated(unsafe) private let pkey: OpaquePointer
    /// Whether the key holds the private scalar.
    public let hasPrivateKey: Bool

    /// Generates a new key pair.
    /// - Throws: `WebPushError.keyGenerationFailed` when OpenSSL cannot.
    public init() throws(WebPushError) {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { throw .keyGenerationFailed }
        defer { EVP_PKEY_CTX_free(context) }
        var generated: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
            EVP_PKEY_generate(context, &generated) == 1, let generated
        else {
            ERR_clear_error()
            throw .keyGenerationFailed
        }
        pkey = generated
        hasPrivateKey = true
    }

    /// Reads a public key: an uncompressed point (X9.62: `0x04 || X || Y`, 65 bytes) that lies
    /// on the curve, as in a subscription's `p256dh` (RFC 8291 3.1).
    /// - Throws: `WebPushError.invalidKey` otherwise.
    public convenience init(publicKey: [UInt8]) throws(WebPushError) {
        try self.init(privateScalar: nil, publicKey: publicKey)
    }

    /// Reads a key pair from its raw private scalar (32 bytes) and its uncompressed public point.
    /// - Throws: `WebPushError.invalidKey` when they are malformed or do not belong together.
    public convenience init(privateKey: [UInt8], publicKey: [UInt8]) throws(WebPushError) {
        guard privateKey.count == 32 else { throw .invalidKey }
        try self.init(privateScalar: privateKey, publicKey: publicKey)
    }

    private init(privateScalar: [UInt8]?, publicKey: [UInt8]) throws(WebPushError) {
        guard publicKey.count == 65, publicKey[0] == 0x04 else { throw .invalidKey }
        guard let imported = Self.fromData(privateScalar: privateScalar, publicKey: publicKey) else {
            ERR_clear_error()
            throw .invalidKey
        }
        pkey = imported
        hasPrivateKey = privateScalar != nil
        guard Self.check(imported, pair: privateScalar != nil) else { throw .invalidKey }
    }

    deinit { EVP_PKEY_free(pkey) }

    /// The public key as an uncompressed point (65 bytes), as `p256dh`, `vapid_key` and the
    /// `k=` of a VAPID `Authorization` carry it.
    public var publicKey: [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 65)
        var length = 0
        let ok = EVP_PKEY_get_octet_string_param(pkey, OSSL_PKEY_PARAM_PUB_KEY, &buffer, buffer.count, &length)
        return ok == 1 ? Array(buffer.prefix(length)) : []
    }

    /// The private scalar (32 bytes, big-endian), or empty for a public key.
    public var privateKey: [UInt8] {
        var number: OpaquePointer?
        guard hasPrivateKey, EVP_PKEY_get_bn_param(pkey, OSSL_PKEY_PARAM_PRIV_KEY, &number) == 1, let number else { return [] }
        defer { BN_clear_free(number) }
        var buffer = [UInt8](repeating: 0, count: 32)
        return BN_bn2binpad(number, &buffer, 32) == 32 ? buffer : []
    }

    /// ECDH (SEC 1 3.3.1) of this private key with `peer`'s public key: the x coordinate.
    /// - Throws: `WebPushError.keyAgreementFailed` when OpenSSL cannot derive it.
    public func sharedSecret(with peer: P256Key) throws(WebPushError) -> [UInt8] {
        guard hasPrivateKey, let context = EVP_PKEY_CTX_new(pkey, nil) else { throw .keyAgreementFailed }
        defer {
            EVP_PKEY_CTX_free(context)
            ERR_clear_error()
        }
        var length = 0
        guard EVP_PKEY_derive_init(context) == 1, EVP_PKEY_derive_set_peer(context, peer.pkey) == 1,
            EVP_PKEY_derive(context, nil, &length) == 1
        else { throw .keyAgreementFailed }
        var secret = [UInt8](repeating: 0, count: length)
        guard EVP_PKEY_derive(context, &secret, &length) == 1 else { throw .keyAgreementFailed }
        return Array(secret.prefix(length))
    }

    /// An ES256 signature (ECDSA P-256 with SHA-256) in JWS form: `r || s`, 32 bytes each
    /// (RFC 7518 3.4).
    /// - Throws: `WebPushError.signingFailed` when OpenSSL cannot sign.
    public func signES256(_ data: [UInt8]) throws(WebPushError) -> [UInt8] {
        guard hasPrivateKey, let context = EVP_MD_CTX_new() else { throw .signingFailed }
        defer {
            EVP_MD_CTX_free(context)
            ERR_clear_error()
        }
        var length = 0
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, pkey) == 1,
            EVP_DigestSign(context, nil, &length, data, data.count) == 1
        else { throw .signingFailed }
        var der = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &der, &length, data, data.count) == 1 else { throw .signingFailed }
        guard let raw = Self.rawSignature(fromDER: Array(der.prefix(length))) else { throw .signingFailed }
        return raw
    }

    /// Checks an ES256 signature in JWS form (`r || s`) over `data`.
    public func verifyES256(signature: [UInt8], for data: [UInt8]) -> Bool {
        guard signature.count == 64, let der = Self.derSignature(fromRaw: signature),
            let context = EVP_MD_CTX_new()
        else { return false }
        defer {
            EVP_MD_CTX_free(context)
            ERR_clear_error()
        }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, pkey) == 1 else { return false }
        return EVP_DigestVerify(context, der, der.count, data, data.count) == 1
    }

    /// Builds an `EVP_PKEY` from a group name, a public point and an optional private scalar.
    /// The parameter builder keeps names and strings by reference until `to_param`, so they are
    /// copied to C strings that live until the key is built.
    private static func fromData(privateScalar: [UInt8]?, publicKey: [UInt8]) -> OpaquePointer? {
        let texts: [String] = [OSSL_PKEY_PARAM_GROUP_NAME, "P-256", OSSL_PKEY_PARAM_PUB_KEY, OSSL_PKEY_PARAM_PRIV_KEY]
        let strings: [UnsafeMutablePointer<CChar>?] = texts.map { strdup($0) }
        defer { strings.forEach { free($0) } }
        guard strings.allSatisfy({ $0 != nil }) else { return nil }
        return publicKey.withUnsafeBytes { point in
            build(names: strings.map { $0.map { UnsafePointer($0) } }, point: point, privateScalar: privateScalar)
        }
    }

    // openssl/core_dispatch.h and evp.h: OSSL_KEYMGMT_SELECT_* combined as EVP_PKEY_PUBLIC_KEY
    // (public key and all parameters) and EVP_PKEY_KEYPAIR (those and the private key); the
    // macros nest too deeply to be imported.
    private static let selectPublicKey: Int32 = 0x86
    private static let selectKeyPair: Int32 = 0x87

    /// `names`: the group key, the group name, the public key's key and the private key's key.
    private static func build(names: [UnsafePointer<CChar>?], point: UnsafeRawBufferPointer, privateScalar: [UInt8]?) -> OpaquePointer? {
        guard let builder = OSSL_PARAM_BLD_new() else { return nil }
        defer { OSSL_PARAM_BLD_free(builder) }
        var scalar: OpaquePointer?
        defer { if let scalar { BN_clear_free(scalar) } }
        if let privateScalar {
            scalar = BN_bin2bn(privateScalar, Int32(privateScalar.count), nil)
            guard let scalar, OSSL_PARAM_BLD_push_BN(builder, names[3], scalar) == 1 else { return nil }
        }
        guard OSSL_PARAM_BLD_push_utf8_string(builder, names[0], names[1], 0) == 1,
            OSSL_PARAM_BLD_push_octet_string(builder, names[2], point.baseAddress, point.count) == 1,
            let params = OSSL_PARAM_BLD_to_param(builder)
        else { return nil }
        defer { OSSL_PARAM_free(params) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        let selection = privateScalar == nil ? selectPublicKey : selectKeyPair
        guard EVP_PKEY_fromdata_init(context) == 1, EVP_PKEY_fromdata(context, &key, selection, params) == 1 else { return nil }
        return key
    }

    /// Whether the point lies on the curve (and, for a pair, matches the private scalar).
    private static func check(_ key: OpaquePointer, pair: Bool) -> Bool {
        guard let context = EVP_PKEY_CTX_new(key, nil) else { return false }
        defer {
            EVP_PKEY_CTX_free(context)
            ERR_clear_error()
        }
        return (pair ? EVP_PKEY_pairwise_check(context) : EVP_PKEY_public_check(context)) == 1
    }

    /// DER `ECDSA-Sig-Value` (RFC 3279 2.2.3) to `r || s`.
    private static func rawSignature(fromDER der: [UInt8]) -> [UInt8]? {
        let signature = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let signature else { return nil }
        defer { ECDSA_SIG_free(signature) }
        var raw = [UInt8](repeating: 0, count: 64)
        let rOK = raw.withUnsafeMutableBufferPointer { BN_bn2binpad(ECDSA_SIG_get0_r(signature), $0.baseAddress, 32) }
        let sOK = raw.withUnsafeMutableBufferPointer { BN_bn2binpad(ECDSA_SIG_get0_s(signature), $0.baseAddress! + 32, 32) }
        return rOK == 32 && sOK == 32 ? raw : nil
    }

    /// `r || s` to DER `ECDSA-Sig-Value`.
    private static func derSignature(fromRaw raw: [UInt8]) -> [UInt8]? {
        guard let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let r = BN_bin2bn(Array(raw[0..<32]), 32, nil)
        let s = BN_bin2bn(Array(raw[32..<64]), 32, nil)
        guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        var output: UnsafeMutablePointer<UInt8>?
        let length = i2d_ECDSA_SIG(signature, &output)
        guard length > 0, let output else { return nil }
        defer { CRYPTO_free(output, nil, 0) }
        return Array(UnsafeBufferPointer(start: output, count: Int(length)))
    }
}
