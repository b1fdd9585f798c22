@testable import Core
import Foundation
import Testing

@testable import FedNode

/// File layout, deduplication, path safety and sweeping.
@Suite("Content-addressed media store")
struct MediaStoreTests {
    @Test("a saved file is named by its SHA-256 under two shard folders")
    func saveLayout() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = MediaStore(root: directory.url)
        let bytes = Data("pretend jpeg bytes".utf8)
        let file = try store.save(bytes, fileExtension: "jpg")
        let hash = SHA256.hexDigest(bytes)
        #expect(file.path == "\(hash.prefix(2))/\(hash.dropFirst(2).prefix(2))/\(hash).jpg")
        #expect(file.sha256 == hash)
        #expect(file.etag == "\"\(hash)\"")
        #expect(file.mimeType == "image/jpeg")
        #expect(file.byteCount == bytes.count)
        #expect(try Data(contentsOf: directory.url.appendingPathComponent(file.path)) == bytes)
        #expect(store.read(file.path) == bytes)
        #expect(store.file(at: file.path) == file)
    }

    @Test("identical bytes are stored once and no temporary file is left")
    func deduplication() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = MediaStore(root: directory.url)
        let first = try store.save(Data([1, 2, 3]), fileExtension: "webp")
        let second = try store.save(Data([1, 2, 3]), fileExtension: "webp")
        #expect(first == second)
        #expect(TemporaryDirectory.files(under: directory.url) == [first.path])
    }

    @Test("delete removes the file and is idempotent")
    func delete() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = MediaStore(root: directory.url)
        let file = try store.save(Data([9, 9, 9]), fileExtension: "jpg")
        try store.delete(file.path)
        #expect(store.file(at: file.path) == nil)
        #expect(store.read(file.path) == nil)
        try store.delete(file.path)
    }

    @Test("paths that are not store paths are refused", arguments: [
        "../secret", "/etc/passwd", "ab/cd/../../../etc/passwd",
        "e3/b0/e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855.exe",
        "E3/B0/E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855.jpg",
        "00/00/e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855.jpg",
        "e3/b0/e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855.jpg/x",
    ])
    func rejectsForeignPaths(path: String) throws {
        let store = MediaStore(root: URL(fileURLWithPath: "/nonexistent-store"))
        #expect(store.fileURL(for: path) == nil)
        #expect(store.file(at: path) == nil)
        #expect(throws: MediaError.self) { try store.delete(path) }
    }

    @Test("unknown extensions are refused")
    func unknownExtension() {
        let store = MediaStore(root: URL(fileURLWithPath: "/nonexistent-store"))
        #expect(throws: MediaError.self) { try store.save(Data([1]), fileExtension: "php") }
    }

    @Test("sweep deletes unreferenced files and stale temporaries, keeps the rest")
    func sweep() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = MediaStore(root: directory.url, temporaryFileGrace: 60)
        let kept = try store.save(Data("kept".utf8), fileExtension: "jpg")
        let orphanA = try store.save(Data("orphan a".utf8), fileExtension: "jpg")
        let orphanB = try store.save(Data("orphan b".utf8), fileExtension: "webp")
        let stray = directory.url.appendingPathComponent("README")
        try Data("not ours".utf8).write(to: stray)
        let staleTemp = directory.url.appendingPathComponent(".abc.jpg.1234.tmp")
        try Data([0]).write(to: staleTemp)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: staleTemp.path)
        let freshTemp = directory.url.appendingPathComponent(".def.jpg.5678.tmp")
        try Data([0]).write(to: freshTemp)

        let removed = try store.sweep(referenced: [kept.path])
        #expect(removed == [orphanA.path, orphanB.path].sorted())
        #expect(TemporaryDirectory.files(under: directory.url) == [".def.jpg.5678.tmp", "README", kept.path].sorted())
        // Emptied shard folders go too: only the kept file's two folders remain.
        let folders = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
            .filter { $0.count == 2 }
        #expect(folders == [String(kept.path.prefix(2))])
    }
}
