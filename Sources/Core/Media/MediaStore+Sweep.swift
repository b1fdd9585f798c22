import Foundation

extension MediaStore {
    /// Deletes every stored file no record refers to, and stale temporary files.
    ///
    /// Files whose names are not store paths are left alone. Run it while no upload is
    /// between ``save(_:fileExtension:)`` and recording its path, or pass those paths too.
    /// - Parameters:
    ///   - referenced: Relative paths that must be kept.
    ///   - minimumAge: Files written more recently than this are kept too (an upload may be
    ///     between being saved and being recorded).
    /// - Returns: The relative paths of the store files removed.
    /// - Throws: `MediaError.storageFailed` when the directory cannot be listed.
    @discardableResult
    public func sweep(referenced: Set<String>, minimumAge: TimeInterval = 0) throws(MediaError) -> [String] {
        var removed: [String] = []
        for file in try allFiles() {
            if let stored = StoredPath(file.relative) {
                guard !referenced.contains(stored.relative), isOlder(file.url, than: minimumAge) else { continue }
                if (try? FileManager.default.removeItem(at: file.url)) != nil { removed.append(stored.relative) }
            } else if isStaleTemporary(file.url) {
                try? FileManager.default.removeItem(at: file.url)
            }
        }
        removeEmptyShards()
        return removed.sorted()
    }

    /// Every regular file under the root, with its path relative to the root.
    private func allFiles() throws(MediaError) -> [(url: URL, relative: String)] {
        guard FileManager.default.fileExists(atPath: root.path) else { return [] }
        guard let enumerator = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [])
        else { throw .storageFailed("cannot list \(root.path)") }
        let rootPath = root.standardizedFileURL.path + "/"
        var files: [(URL, String)] = []
        for case let url as URL in enumerator {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(rootPath) else { continue }
            files.append((url, String(path.dropFirst(rootPath.count))))
        }
        return files
    }

    private func isOlder(_ url: URL, than age: TimeInterval) -> Bool {
        guard age > 0 else { return true }
        let modified = (try? url.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? Date()
        return Date().timeIntervalSince(modified) > age
    }

    private func isStaleTemporary(_ url: URL) -> Bool {
        guard url.lastPathComponent.hasPrefix("."), url.pathExtension == "tmp",
              let modified = try? url.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate
        else { return false }
        return Date().timeIntervalSince(modified) > temporaryFileGrace
    }

    /// Removes `ab/cd` and `ab` folders left empty.
    private func removeEmptyShards() {
        let manager = FileManager.default
        for outer in (try? manager.contentsOfDirectory(atPath: root.path)) ?? [] where outer.count == 2 {
            let outerURL = root.appendingPathComponent(outer, isDirectory: true)
            for inner in (try? manager.contentsOfDirectory(atPath: outerURL.path)) ?? [] where inner.count == 2 {
                let innerURL = outerURL.appendingPathComponent(inner, isDirectory: true)
                if (try? manager.contentsOfDirectory(atPath: innerURL.path))?.isEmpty == true {
                    try? manager.removeItem(at: innerURL)
                }
            }
            if (try? manager.contentsOfDirectory(atPath: outerURL.path))?.isEmpty == true {
                try? manager.removeItem(at: outerURL)
            }
        }
    }
}
