/// The only relative path shape a ``MediaStore`` reads, writes or deletes:
/// `ab/cd/<64 hex digits>.<ext>`, where `ab` and `cd` are the hash's first four digits.
///
/// Parsing is strict so that no caller-supplied path can leave the store's root.
package struct StoredPath: Sendable, Equatable {
    /// Content hash, lowercase hex.
    package let sha256: String
    /// Extension without the dot, one of ``mimeTypes``' keys.
    package let fileExtension: String

    /// The media type for each extension the store keeps.
    package static let mimeTypes: [String: String] = [
        "jpg": "image/jpeg", "webp": "image/webp", "png": "image/png", "gif": "image/gif",
    ]

    /// Creates a path from a hash and an extension.
    /// - Parameters:
    ///   - sha256: 64 lowercase hex digits.
    ///   - fileExtension: A key of ``mimeTypes``.
    /// - Returns: `nil` if either part is malformed.
    package init?(sha256: String, fileExtension: String) {
        guard sha256.count == 64, sha256.allSatisfy(\.isLowercaseHexDigit),
              Self.mimeTypes[fileExtension] != nil
        else { return nil }
        self.sha256 = sha256
        self.fileExtension = fileExtension
    }

    /// Parses a relative path.
    /// - Parameter relative: Such as `ab/cd/abcd....jpg`.
    /// - Returns: `nil` for anything else, including `..`, absolute paths and stray files.
    package init?(_ relative: String) {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        let name = parts[2].split(separator: ".", omittingEmptySubsequences: false)
        guard name.count == 2 else { return nil }
        self.init(sha256: String(name[0]), fileExtension: String(name[1]))
        guard parts[0] == sha256.prefix(2), parts[1] == sha256.dropFirst(2).prefix(2) else { return nil }
    }

    /// The relative path string.
    package var relative: String {
        "\(sha256.prefix(2))/\(sha256.dropFirst(2).prefix(2))/\(sha256).\(fileExtension)"
    }

    /// The media type of the file.
    package var mimeType: String {
        Self.mimeTypes[fileExtension] ?? "application/octet-stream"
    }
}

extension Character {
    /// Whether this is `0`-`9` or `a`-`f`.
    fileprivate var isLowercaseHexDigit: Bool {
        ("0"..."9").contains(self) || ("a"..."f").contains(self)
    }
}
