import Foundation

/// Body digests: `Digest` (RFC 3230, as Mastodon sends it) and `Content-Digest` (RFC 9530).
enum BodyDigest {
    /// The `Digest` value Mastodon sends: `SHA-256=<base64>`.
    static func digestValue(for body: [UInt8]) -> String {
        "SHA-256=" + Data(Digest.sha256(body)).base64EncodedString()
    }

    /// The `Content-Digest` value of RFC 9530 2: `sha-256=:<base64>:`.
    static func contentDigestValue(for body: [UInt8]) -> String {
        "sha-256=" + StructuredField.serialize(.bytes(Digest.sha256(body)))
    }

    /// Checks a `Digest` header: comma-separated `algorithm=base64` (RFC 3230 4.3.2), algorithm
    /// names in any case. Every SHA-256/SHA-512 entry must match and at least one must be present.
    /// - Throws: `SignatureError.digestMismatch`, or `.unsupportedAlgorithm` when none is known.
    static func checkDigest(_ header: String, body: [UInt8]) throws(SignatureError) {
        var known: [(algorithm: String, value: [UInt8]?)] = []
        var names: [String] = []
        for entry in header.split(separator: ",") {
            let parts = entry.trimmingHTTPWhitespace().split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { throw .digestMismatch }
            let algorithm = parts[0].lowercased()
            names.append(algorithm)
            if algorithm == "sha-256" || algorithm == "sha-512" {
                known.append((algorithm, Data(base64Encoded: String(parts[1])).map { [UInt8]($0) }))
            }
        }
        try check(known, body: body, names: names)
    }

    /// Checks a `Content-Digest` header, an RFC 8941 dictionary of byte sequences (RFC 9530 2).
    /// - Throws: `SignatureError.digestMismatch`, or `.unsupportedAlgorithm` when neither
    ///   `sha-256` nor `sha-512` is present.
    static func checkContentDigest(_ header: String, body: [UInt8]) throws(SignatureError) {
        let entries: [StructuredField.Entry]
        do { entries = try StructuredField.parseDictionary(header) } catch { throw .digestMismatch }
        let known = entries.filter { $0.key == "sha-256" || $0.key == "sha-512" }.map { entry in
            guard case .item(let item) = entry.member, case .bytes(let bytes) = item.value else {
                return (algorithm: entry.key, value: [UInt8]?.none)
            }
            return (algorithm: entry.key, value: Optional(bytes))
        }
        try check(known, body: body, names: entries.map(\.key))
    }

    private static func check(
        _ known: [(algorithm: String, value: [UInt8]?)], body: [UInt8], names: [String]
    ) throws(SignatureError) {
        guard !known.isEmpty else { throw .unsupportedAlgorithm(names.first ?? "none") }
        for (algorithm, value) in known {
            let expected = algorithm == "sha-256" ? Digest.sha256(body) : Digest.sha512(body)
            guard value == expected else { throw .digestMismatch }
        }
    }
}
