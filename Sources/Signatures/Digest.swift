import COpenSSL

/// One-shot message digests and HMAC through OpenSSL's EVP interface.
public enum Digest {
    /// SHA-256 (FIPS 180-4), as used by `Digest: SHA-256=` (RFC 3230) and `rsa-sha256`.
    public static func sha256(_ data: [UInt8]) -> [UInt8] {
        digest(data, EVP_sha256())
    }

    /// SHA-256 of `data` in lower-case hex (content addresses, stored token hashes).
    public static func sha256Hex(_ data: [UInt8]) -> String {
        hex(sha256(data))
    }

    /// `bytes` in lower-case hex, two digits each.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
            digits.withUTF8Buffer { digits in
                for (index, byte) in bytes.enumerated() {
                    buffer[2 * index] = digits[Int(byte >> 4)]
                    buffer[2 * index + 1] = digits[Int(byte & 0x0F)]
                }
            }
            return bytes.count * 2
        }
    }

    /// SHA-512 (FIPS 180-4), as used by `Content-Digest: sha-512=` (RFC 9530).
    public static func sha512(_ data: [UInt8]) -> [UInt8] {
        digest(data, EVP_sha512())
    }

    /// HMAC-SHA256 (RFC 2104), the `hmac-sha256` algorithm of RFC 9421 3.3.3.
    public static func hmacSHA256(key: [UInt8], data: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length = 0
        let result = EVP_Q_mac(nil, "HMAC", nil, "SHA256", nil, key, key.count, data, data.count,
                               &output, output.count, &length)
        precondition(result != nil, "HMAC-SHA256 failed")
        return Array(output.prefix(length))
    }

    private static func digest(_ data: [UInt8], _ type: OpaquePointer?) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        // EVP_Digest fails only on allocation failure or a missing provider: a broken install.
        precondition(EVP_Digest(data, data.count, &output, &length, type, nil) == 1, "EVP_Digest failed")
        return Array(output.prefix(Int(length)))
    }
}
