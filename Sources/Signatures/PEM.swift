import Foundation

/// RFC 7468 textual encoding ("PEM") of DER structures, without OpenSSL.
enum PEM {
    /// Wraps DER bytes as `-----BEGIN label-----`, base64 in 64-character lines, a trailing newline.
    static func encode(_ der: [UInt8], label: String) -> String {
        let base64 = Data(der).base64EncodedString()
        var lines = ["-----BEGIN \(label)-----"]
        var start = base64.startIndex
        while start < base64.endIndex {
            let end = base64.index(start, offsetBy: 64, limitedBy: base64.endIndex) ?? base64.endIndex
            lines.append(String(base64[start..<end]))
            start = end
        }
        lines.append("-----END \(label)-----")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Finds the first PEM block and returns its label and DER bytes.
    ///
    /// Tolerates what actor documents really contain: surrounding whitespace, `\r\n` line
    /// endings, indented lines and literal `\n` escapes left undecoded by a sloppy publisher.
    static func decode(_ text: String) -> (label: String, der: [UInt8])? {
        let normalized = text.replacingOccurrences(of: "\\n", with: "\n")
            .replacingOccurrences(of: "\r", with: "\n")
        let lines = normalized.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let begin = lines.firstIndex(where: { $0.hasPrefix("-----BEGIN ") && $0.hasSuffix("-----") })
        else { return nil }
        let label = String(lines[begin].dropFirst(11).dropLast(5))
        guard let end = lines[begin...].firstIndex(of: "-----END \(label)-----") else { return nil }
        let body = lines[(begin + 1)..<end].filter { !$0.isEmpty && !$0.contains(":") }.joined()
        guard let der = Data(base64Encoded: body), !der.isEmpty else { return nil }
        return (label, [UInt8](der))
    }
}

/// Runs an OpenSSL `i2d_*`-style encoder twice (length, then bytes) and returns the DER.
///
/// The closure receives the `unsigned char **` output argument; `nil` asks for the length only.
func collectDER(_ encode: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32) -> [UInt8]? {
    let length = encode(nil)
    guard length > 0 else { return nil }
    var der = [UInt8](repeating: 0, count: Int(length))
    let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
        var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
        return encode(&cursor)
    }
    return written == length ? der : nil
}
