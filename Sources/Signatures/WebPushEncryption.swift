import COpenSSL

/// Message encryption for Web Push (RFC 8291) in the `aes128gcm` content coding (RFC 8188):
/// one record, ECDH P-256 with the subscription's key, HKDF-SHA-256 with its auth secret,
/// AES-128-GCM.
public enum WebPushEncryption {
    /// The record size announced in the header (RFC 8291 4 recommends 4096).
    public static let recordSize = 4096
    /// The most plaintext one record holds: 4096 minus the 16-byte tag and the delimiter.
    public static let maxPlaintext = recordSize - 17

    /// Encrypts `plaintext` for a subscription with a fresh key pair and salt.
    /// - Parameters:
    ///   - plaintext: The message (at most `maxPlaintext` bytes).
    ///   - subscriberKey: The subscription's `p256dh` (65-byte uncompressed point).
    ///   - authSecret: The subscription's `auth` (16 bytes).
    /// - Returns: The body to POST: header (salt, rs, idlen, key) then the encrypted record.
    /// - Throws: `WebPushError` when a key is malformed or OpenSSL fails.
    public static func encrypt(_ plaintext: [UInt8], subscriberKey: [UInt8], authSecret: [UInt8]) throws(WebPushError) -> [UInt8] {
        try encrypt(plaintext, subscriberKey: subscriberKey, authSecret: authSecret, senderKey: P256Key(), salt: randomBytes(16))
    }

    /// Encrypts with a given sender key pair and salt (the RFC 8291 Appendix A example fixes both).
    /// - Parameters:
    ///   - senderKey: The application server's one-time key pair.
    ///   - salt: 16 random bytes.
    public static func encrypt(
        _ plaintext: [UInt8], subscriberKey: [UInt8], authSecret: [UInt8], senderKey: P256Key, salt: [UInt8]
    ) throws(WebPushError) -> [UInt8] {
        guard authSecret.count == 16 else { throw .invalidAuthSecret }
        guard salt.count == 16, plaintext.count <= maxPlaintext else { throw .encryptionFailed }
        let subscriber = try P256Key(publicKey: subscriberKey)
        let senderPublic = senderKey.publicKey
        let secret = try senderKey.sharedSecret(with: subscriber)
        // RFC 8291 3.3: IKM from the ECDH secret, keyed by the auth secret.
        let keyInfo = Array("WebPush: info".utf8) + [0] + subscriberKey + senderPublic
        let ikm = expand(prk: Digest.hmacSHA256(key: authSecret, data: secret), info: keyInfo, length: 32)
        // RFC 8188 2.2 and 2.3: content-encryption key and nonce from the salt.
        let prk = Digest.hmacSHA256(key: salt, data: ikm)
        let key = expand(prk: prk, info: Array("Content-Encoding: aes128gcm".utf8) + [0], length: 16)
        let nonce = expand(prk: prk, info: Array("Content-Encoding: nonce".utf8) + [0], length: 12)
        // RFC 8188 2: the last (here only) record ends with the 0x02 padding delimiter.
        let record = try seal(plaintext + [0x02], key: key, nonce: nonce)
        let size = UInt32(recordSize)
        let header = salt + [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
            + [UInt8(senderPublic.count)] + senderPublic
        return header + record
    }

    /// HKDF-Expand (RFC 5869 2.3) for at most one block of output.
    private static func expand(prk: [UInt8], info: [UInt8], length: Int) -> [UInt8] {
        Array(Digest.hmacSHA256(key: prk, data: info + [0x01]).prefix(length))
    }

    /// AES-128-GCM: the ciphertext followed by the 16-byte tag.
    private static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8]) throws(WebPushError) -> [UInt8] {
        guard let context = EVP_CIPHER_CTX_new() else { throw .encryptionFailed }
        defer {
            EVP_CIPHER_CTX_free(context)
            ERR_clear_error()
        }
        var output = [UInt8](repeating: 0, count: plaintext.count + 16)
        var written: Int32 = 0
        var finalWritten: Int32 = 0
        guard EVP_EncryptInit_ex(context, EVP_aes_128_gcm(), nil, key, nonce) == 1,
            EVP_EncryptUpdate(context, &output, &written, plaintext, Int32(plaintext.count)) == 1
        else { throw .encryptionFailed }
        let finished = output.withUnsafeMutableBufferPointer { buffer in
            EVP_EncryptFinal_ex(context, buffer.baseAddress! + Int(written), &finalWritten)
        }
        guard finished == 1 else { throw .encryptionFailed }
        let length = Int(written + finalWritten)
        var tag = [UInt8](repeating: 0, count: 16)
        guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, 16, &tag) == 1 else { throw .encryptionFailed }
        return Array(output.prefix(length)) + tag
    }
}
