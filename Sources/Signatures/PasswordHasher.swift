import COpenSSL
import Foundation

/// Password hashing with scrypt (RFC 7914) through OpenSSL's `EVP_KDF` "SCRYPT".
///
/// Stored form: `$scrypt$ln=15,r=8,p=1$<base64 salt>$<base64 hash>`, so the cost can be raised
/// later while old hashes still verify with the parameters they were made with.
public enum PasswordHasher {
    private static let saltLength = 16
    private static let hashLength = 32
    private static let blockSize = 8
    private static let parallelism = 1
    /// Largest accepted work factor: N = 2^20 with r = 8 needs 1 GiB, so stored strings asking
    /// for more are treated as malformed rather than allowed to exhaust memory.
    private static let maxLogN = 20

    /// Hashes `password` with a fresh random 16-byte salt.
    /// - Parameters:
    ///   - password: the plain text, as UTF-8.
    ///   - logN: log2 of scrypt's CPU/memory cost N; 15 (32 MiB) by default, lower only in tests.
    /// - Returns: the self-describing `$scrypt$...` string to store.
    /// - Throws: `SignatureError.keyDerivationFailed` for an out-of-range `logN` or a KDF failure.
    public static func hash(_ password: String, logN: Int = 15) throws(SignatureError) -> String {
        let parameters = Parameters(logN: logN, r: blockSize, p: parallelism)
        guard parameters.isAcceptable else { throw .keyDerivationFailed }
        let salt = randomBytes(saltLength)
        guard let derived = derive(Array(password.utf8), salt: salt, parameters, length: hashLength) else {
            throw .keyDerivationFailed
        }
        return "$scrypt$\(parameters.encoded)$\(base64(salt))$\(base64(derived))"
    }

    /// Checks `password` against a stored `$scrypt$...` string in constant time (`CRYPTO_memcmp`).
    /// - Returns: `false` for a wrong password and for a malformed stored string.
    public static func verify(_ password: String, against stored: String) -> Bool {
        let fields = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 5, fields[0].isEmpty, fields[1] == "scrypt",
            let parameters = Parameters(encoded: fields[2]), parameters.isAcceptable,
            let salt = Data(base64Encoded: String(fields[3])), !salt.isEmpty,
            let expected = Data(base64Encoded: String(fields[4])), (16...64).contains(expected.count),
            let derived = derive(Array(password.utf8), salt: [UInt8](salt), parameters, length: expected.count)
        else { return false }
        return CRYPTO_memcmp(derived, [UInt8](expected), expected.count) == 0
    }

    private static func base64(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }

    /// Runs scrypt; `nil` when OpenSSL refuses (for example, parameters beyond `maxmem`).
    private static func derive(_ password: [UInt8], salt: [UInt8], _ parameters: Parameters, length: Int) -> [UInt8]? {
        guard let kdf = EVP_KDF_fetch(nil, "SCRYPT", nil) else { return nil }
        defer { EVP_KDF_free(kdf) }
        guard let context = EVP_KDF_CTX_new(kdf) else { return nil }
        defer { EVP_KDF_CTX_free(context) }
        let n = UInt64(1) << UInt64(parameters.logN)
        let r = UInt64(parameters.r), p = UInt64(parameters.p)
        // RFC 7914 needs 128*r*(N+2) bytes for V plus 128*r*p for B; OpenSSL checks exactly that.
        let memory = 128 * r * (n + 2 + p) + 1 << 20
        var output = [UInt8](repeating: 0, count: length)
        guard setOctets(context, "pass", password), setOctets(context, "salt", salt),
            setUInt64(context, "n", n), setUInt32(context, "r", UInt32(r)),
            setUInt32(context, "p", UInt32(p)), setUInt64(context, "maxmem_bytes", memory),
            EVP_KDF_derive(context, &output, length, nil) == 1
        else {
            ERR_clear_error()
            return nil
        }
        return output
    }

    // OpenSSL copies each parameter's value in EVP_KDF_CTX_set_params (providers/implementations/
    // kdfs/scrypt.c), so the pointers only need to live for the one call.
    private static func setOctets(_ context: OpaquePointer, _ key: StaticString, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            let data = UnsafeMutableRawPointer(mutating: buffer.baseAddress)
            var params = [OSSL_PARAM_construct_octet_string(name(key), data, buffer.count), OSSL_PARAM_construct_end()]
            return EVP_KDF_CTX_set_params(context, &params) == 1
        }
    }

    private static func setUInt64(_ context: OpaquePointer, _ key: StaticString, _ value: UInt64) -> Bool {
        var value = value
        return withUnsafeMutablePointer(to: &value) { pointer in
            var params = [OSSL_PARAM_construct_uint64(name(key), pointer), OSSL_PARAM_construct_end()]
            return EVP_KDF_CTX_set_params(context, &params) == 1
        }
    }

    private static func setUInt32(_ context: OpaquePointer, _ key: StaticString, _ value: UInt32) -> Bool {
        var value = value
        return withUnsafeMutablePointer(to: &value) { pointer in
            var params = [OSSL_PARAM_construct_uint32(name(key), pointer), OSSL_PARAM_construct_end()]
            return EVP_KDF_CTX_set_params(context, &params) == 1
        }
    }

    /// A static string's bytes live for the whole program, as OSSL_PARAM keys must.
    private static func name(_ key: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(key.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    /// scrypt's cost parameters as stored in the hash string.
    private struct Parameters {
        /// log2 of the CPU/memory cost N.
        var logN: Int
        /// The block size.
        var r: Int
        /// The parallelism.
        var p: Int

        /// Bounds that keep a stored string from demanding unbounded memory or time.
        var isAcceptable: Bool {
            (1...PasswordHasher.maxLogN).contains(logN) && (1...32).contains(r) && (1...16).contains(p)
                && (128 * r) << logN <= 1 << 30
        }

        var encoded: String { "ln=\(logN),r=\(r),p=\(p)" }

        /// Parameters with the given cost, block size and parallelism.
        init(logN: Int, r: Int, p: Int) {
            self.logN = logN
            self.r = r
            self.p = p
        }

        /// Reads `ln=15,r=8,p=1`, in that order.
        init?(encoded: Substring) {
            let values = encoded.split(separator: ",").map { $0.split(separator: "=", maxSplits: 1) }
            guard values.count == 3, values.allSatisfy({ $0.count == 2 }),
                values.map({ $0[0] }) == ["ln", "r", "p"],
                let logN = Int(values[0][1]), let r = Int(values[1][1]), let p = Int(values[2][1])
            else { return nil }
            self.init(logN: logN, r: r, p: p)
        }
    }
}
