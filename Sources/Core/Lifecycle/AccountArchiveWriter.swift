import Activity
import Foundation
import Storage

/// Writes a local account's archive as a ZIP, in the layout of Mastodon's "request your
/// archive": `actor.json` (the actor document), `outbox.json` (an `OrderedCollection` of the
/// `Create` of every post it wrote, oldest first, as its outbox renders them), `likes.json`
/// (the ids of the posts it liked), `media_attachments/files/...` (the original photo files of
/// its posts, streamed from the media directory), and the CSV lists of `AccountExport`.
///
/// Bounds: at most `maxPosts` posts and `maxPhotos` photos (the oldest ones), and the
/// classic ZIP limits of 65,535 entries and 4 GiB (`ZipWriter.Failure.tooLarge` beyond them).
package struct AccountArchiveWriter: Sendable {
    /// Most posts in `outbox.json`.
    package static let maxPosts = 50_000
    /// Most photo files in the archive.
    package static let maxPhotos = 20_000
    // Posts rendered per read transaction.
    private static let batch = 200
    package let node: Node

    /// Acts for `node`.
    package init(node: Node) {
        self.node = node
    }

    /// Writes the archive of `account` to the file at `url` (created or replaced).
    /// - Throws: `NodeError.validation` when the archive would pass the ZIP limits, `.internal`
    ///   for a storage failure.
    package func write(_ account: Account, to url: URL) async throws(NodeError) {
        do {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            let zip = ZipWriter(handle: handle)
            // The actor as the node serves it, aliases and `movedTo` included.
            let person = try await node.database.read { [urls = node.urls] db in try AccountToAS.person(account, urls: urls, in: db) }
            try zip.add("actor.json", data: person.encoded())
            try await writeOutbox(of: account, to: zip)
            try await writeLists(of: account, to: zip)
            try await writePhotos(of: account, to: zip)
            try zip.finish()
        } catch ZipWriter.Failure.tooLarge {
            throw .validation("The archive would be larger than a ZIP file can hold (4 GiB, 65,535 files)")
        } catch let error as NodeError { throw error } catch {
            throw .internal("writing archive: \(error)")
        }
    }

    /// `outbox.json`, written in batches so no more than `batch` posts are in memory at once.
    private func writeOutbox(of account: Account, to zip: ZipWriter) async throws {
        let urls = node.urls
        let total = min(try await node.database.read { db in try db.accountArchive.postCount(of: account.id) }, Self.maxPosts)
        try zip.begin("outbox.json")
        try zip.write(Data("{\"@context\":\"\(ActivityStreams.contextURL)\",\"id\":\"outbox.json\",\"type\":\"OrderedCollection\",\"totalItems\":\(total),\"orderedItems\":[".utf8))
        var (after, written) = (Int64(0), 0)
        while written < total {
            let (limit, start) = (min(Self.batch, total - written), after)
            let (pieces, last) = try await node.database.read { db -> ([Data], Int64?) in
                let posts = try db.accountArchive.posts(of: account.id, after: start, limit: limit)
                let pieces = try posts.map { post in
                    var create = PostToAS(urls: urls).create(post, parts: try .read(post, in: db))
                    create.context = nil
                    return create.encoded()
                }
                return (pieces, posts.last?.id)
            }
            guard let last else { break }
            for piece in pieces {
                if written > 0 { try zip.write(Data(",".utf8)) }
                try zip.write(piece)
                written += 1
            }
            after = last
        }
        try zip.write(Data("]}".utf8))
        try zip.end()
    }

    /// `likes.json` and the CSV lists.
    private func writeLists(of account: Account, to zip: ZipWriter) async throws {
        let urls = node.urls
        let (likes, lists) = try await node.database.read { db in
            let likes = try db.accountArchive.likedURIs(by: account.id, limit: AccountExport.maxRows)
            let lists = try AccountExport.List.allCases.map { ($0.archiveName, try AccountExport.csv($0, of: account, urls: urls, in: db)) }
            return (likes, lists)
        }
        let collection = ASObject(id: "likes.json", type: "OrderedCollection", context: ASContext.activityStreams,
                                  totalItems: likes.count, items: likes.map { .id($0) })
        try zip.add("likes.json", data: collection.encoded())
        for (name, text) in lists { try zip.add(name, data: Data(text.utf8)) }
    }

    /// The original photo files, read 64 KiB at a time; a file missing from the media
    /// directory is left out (logged).
    private func writePhotos(of account: Account, to zip: ZipWriter) async throws {
        let media = try await node.database.read { db in try db.accountArchive.postMedia(of: account.id, limit: Self.maxPhotos) }
        let store = node.mediaStorage
        for attachment in media {
            guard let path = attachment.filePath, let file = store.localFile(for: path) else {
                node.logger.warning("archive: photo file missing", metadata: ["media": "\(attachment.id)"])
                continue
            }
            try zip.add("media_attachments/files/\(path)", contentsOf: file)
        }
    }
}
