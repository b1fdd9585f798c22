@testable import Core
import Foundation
import GRDB
import Storage
import Testing
@testable import FedNode

/// Files nobody refers to any more leave the disk; what is still used stays.
@Suite("Media janitor")
struct MediaJanitorTests {
    @Test("a deleted post's photos and stale unattached uploads are removed; used files stay")
    func sweep() async throws {
        let t = try TestNode.make(); defer { t.remove() }
        let (alice, _) = try await t.user("alice")
        let store = t.node.uploadStore
        func upload(_ width: Int) async throws -> MediaAttachment {
            let stored = try await store.store(try RealImages.png(width: width, height: 300), focus: nil)
            var media = MediaAttachment(accountId: alice.id)
            media.filePath = stored.path
            media.thumbnailPath = stored.thumbnailPath
            return try await t.node.database.writeSQL { [media] db in try media.inserted(db) }
        }
        let kept = try await upload(400)
        let deleted = try await upload(500)
        let stale = try await upload(600)
        let keptPost = try await t.node.posts.create(.init(text: "stays", mediaIds: [kept.id]), by: alice)
        let gone = try await t.node.posts.create(.init(text: "goes", mediaIds: [deleted.id]), by: alice)
        try await t.node.posts.delete(gone.id, by: alice)
        try await t.node.database.writeSQL { db in
            try db.execute(sql: "UPDATE media_attachments SET created_at = ? WHERE id = ?", arguments: [Date().addingTimeInterval(-2 * 86_400), stale.id])
        }

        let removed = await MediaJanitor(node: t.node).clean(grace: 0)
        let media = t.dataDirectory + "/media/"
        for row in [deleted, stale] {
            for path in [row.filePath, row.thumbnailPath].compactMap({ $0 }) {
                #expect(removed.contains(path))
                #expect(!FileManager.default.fileExists(atPath: media + path))
            }
        }
        for path in [kept.filePath, kept.thumbnailPath].compactMap({ $0 }) {
            #expect(FileManager.default.fileExists(atPath: media + path))
        }
        #expect(try await t.node.database.readSQL { try MediaAttachment.fetchOne($0, key: stale.id) } == nil)
        #expect(try await t.node.database.readSQL { try MediaAttachment.filter(Column("post_id") == keptPost.id).fetchCount($0) } == 1)
        // With the default grace, fresh files are never touched.
        let another = try await upload(700)
        try await t.node.posts.delete(keptPost.id, by: alice)
        #expect(await MediaJanitor(node: t.node).clean().isEmpty)
        #expect(FileManager.default.fileExists(atPath: media + another.filePath!))
    }
}
