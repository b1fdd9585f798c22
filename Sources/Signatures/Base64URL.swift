import Foundation

/// The URL- and filename-safe Base64 alphabet without padding (RFC 4648 5), as Web Push keys,
/// JWTs and VAPID headers use it.
public enum Base64URL {
    /// Encodes bytes without `=` padding.
    public static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Decodes text in the URL-safe alphabet (padding optional); standard Base64 (`+`, `/`) is
    /// accepted too, since clients send both.
    /// - Returns: The bytes, or `nil` when the text is not Base64.
    public static func decode(_ text: String) -> [UInt8]? {
        var standard = text.trimmingCharacters(in: .whitespaces)
            .replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        standard = standard.replacingOccurrences(of: "=", with: "")
        guard standard.count % 4 != 1 else { return nil }
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard).map { [UInt8]($0) }
    }
}
