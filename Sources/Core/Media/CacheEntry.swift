import Foundation

/// One file of a ``RemoteMediaCache``, as tracked in its in-memory index.
///
/// The file name carries the key and the fetch time (`<sha256(url)>-<ms since 1970>`);
/// the file's modification time records the last access. So the index can always be
/// rebuilt from a directory listing, with no separate index file to keep consistent.
package struct CacheEntry: Sendable, Equatable {
    /// SHA-256 of the absolute URL, lowercase hex.
    package let key: String
    /// When the bytes were fetched.
    package let fetchedAt: Date
    /// File size in bytes.
    package let size: Int
    /// When the entry was last served or stored.
    package var lastAccess: Date

    /// The file name for this entry.
    package var fileName: String {
        "\(key)-\(Int64((fetchedAt.timeIntervalSince1970 * 1000).rounded()))"
    }

    /// Creates an entry.
    /// - Parameters:
    ///   - key: URL hash.
    ///   - fetchedAt: Fetch time, kept to the millisecond.
    ///   - size: Bytes.
    ///   - lastAccess: Last use.
    package init(key: String, fetchedAt: Date, size: Int, lastAccess: Date) {
        self.key = key
        let milliseconds = (fetchedAt.timeIntervalSince1970 * 1000).rounded()
        self.fetchedAt = Date(timeIntervalSince1970: milliseconds / 1000)
        self.size = size
        self.lastAccess = lastAccess
    }

    /// Parses a file name written by ``fileName``.
    /// - Parameters:
    ///   - fileName: A directory entry.
    ///   - size: Its size.
    ///   - lastAccess: Its modification time.
    /// - Returns: `nil` for names of any other shape.
    package init?(fileName: String, size: Int, lastAccess: Date) {
        let parts = fileName.split(separator: "-")
        guard parts.count == 2, parts[0].count == 64,
              parts[0].allSatisfy({ $0.isHexDigit && !$0.isUppercase }),
              let milliseconds = Int64(parts[1])
        else { return nil }
        self.init(
            key: String(parts[0]), fetchedAt: Date(timeIntervalSince1970: Double(milliseconds) / 1000),
            size: size, lastAccess: lastAccess)
    }
}
