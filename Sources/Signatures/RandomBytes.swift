import COpenSSL

/// Cryptographically secure random bytes from OpenSSL's CSPRNG (`RAND_bytes`), for salts,
/// tokens and nonces.
/// - Parameter count: how many bytes to return.
public func randomBytes(_ count: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    guard count > 0 else { return bytes }
    // RAND_bytes fails only when the generator cannot be seeded; continuing would hand out
    // predictable secrets, so stop instead.
    precondition(RAND_bytes(&bytes, Int32(count)) == 1, "RAND_bytes failed")
    return bytes
}
