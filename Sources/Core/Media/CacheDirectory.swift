import Foundation

/// The file operations behind a ``RemoteMediaCache``: one flat directory of entry files.
package struct CacheDirectory: Sendable {
    /// The directory; created by ``prepare()``.
    package let url: URL

    /// Creates the directory and removes temporary files a crash left behind.
    /// - Throws: `MediaError.storageFailed` when the directory cannot be made or listed.
    package func prepare() throws(MediaError) {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path) where name.hasSuffix(".tmp") {
                try? FileManager.default.removeItem(at: url.appendingPathComponent(name))
            }
        } catch {
            throw .storageFailed("cache directory \(url.path): \(error.localizedDescription)")
        }
    }

    /// Every entry file, with its size and modification time; other files are ignored.
    package func entries() -> [CacheEntry] {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey, .isRegularFileKey]
        let files = (try? FileManager.default.contentsOfDirectory(
            at: url, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])) ?? []
        return files.compactMap { file in
            guard let values = try? file.resourceValues(forKeys: Set(keys)), values.isRegularFile == true,
                  let size = values.fileSize, let modified = values.contentModificationDate
            else { return nil }
            return CacheEntry(fileName: file.lastPathComponent, size: size, lastAccess: modified)
        }
    }

    /// Writes an entry's bytes via a temporary file and a rename.
    /// - Parameters:
    ///   - data: The bytes.
    ///   - entry: The entry they belong to.
    /// - Throws: `MediaError.storageFailed` when the disk fails.
    package func write(_ data: Data, for entry: CacheEntry) throws(MediaError) {
        let temporary = url.appendingPathComponent(".\(entry.fileName).\(UUID().uuidString).tmp")
        do {
            try data.write(to: temporary)
            try FileManager.default.moveItem(at: temporary, to: fileURL(entry))
            touch(entry, at: entry.lastAccess)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw .storageFailed("cache write: \(error.localizedDescription)")
        }
    }

    /// Reads an entry's bytes.
    /// - Parameter entry: The entry.
    /// - Returns: The bytes, or `nil` when the file is gone or unreadable.
    package func read(_ entry: CacheEntry) -> Data? {
        try? Data(contentsOf: fileURL(entry))
    }

    /// Records a use of the entry as the file's modification time.
    /// - Parameters:
    ///   - entry: The entry.
    ///   - date: The time of use.
    package func touch(_ entry: CacheEntry, at date: Date) {
        try? FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: fileURL(entry).path)
    }

    /// Deletes an entry's file if present.
    /// - Parameter entry: The entry.
    package func remove(_ entry: CacheEntry) {
        try? FileManager.default.removeItem(at: fileURL(entry))
    }

    private func fileURL(_ entry: CacheEntry) -> URL {
        url.appendingPathComponent(entry.fileName, isDirectory: false)
    }
}
