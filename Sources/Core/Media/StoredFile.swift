/// A file in a ``MediaStore``, described for serving.
public struct StoredFile: Sendable, Equatable, Hashable {
    /// Path relative to the store root: `ab/cd/<sha256>.<ext>`. Persist this.
    public let path: String
    /// SHA-256 of the content, 64 lowercase hex digits.
    public let sha256: String
    /// File size in bytes.
    public let byteCount: Int
    /// Media type derived from the extension.
    public let mimeType: String

    /// A strong HTTP entity tag (RFC 9110 8.8.3): the quoted content hash.
    public var etag: String {
        "\"\(sha256)\""
    }

    /// Creates a description.
    /// - Parameters:
    ///   - path: Relative path.
    ///   - sha256: Content hash.
    ///   - byteCount: Size.
    ///   - mimeType: Media type.
    public init(path: String, sha256: String, byteCount: Int, mimeType: String) {
        self.path = path
        self.sha256 = sha256
        self.byteCount = byteCount
        self.mimeType = mimeType
    }
}
