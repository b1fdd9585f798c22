import Foundation
import Storage

/// Keeps the versions of edited posts, as Mastodon's status edits: on the first edit the
/// version before it is stored (published at the post's creation), then every new version.
/// Both calls run inside the edit's own transaction, for local edits and inbound `Update`s.
package enum PostHistory {
    /// The photos of one version as stored in `post_edits.media`: the attachment rows as they
    /// were, so that a version shows the alt text and focal point it had. (Versions stored
    /// before this form hold a JSON array of client-API attachments instead.)
    package struct MediaSnapshot: Codable, Sendable {
        /// The attachments, in order.
        package var attachments: [MediaAttachment]
    }

    /// Stores `post` as it is before an edit, unless versions are already stored. Call it
    /// before the edit changes the post or its media.
    package static func keepPrevious(_ post: Post, in db: Transaction) throws {
        guard try !db.postEdits.exists(of: post.id) else { return }
        // A post edited before versions were kept only has its latest version left.
        try db.postEdits.add(try version(of: post, at: post.editedAt ?? post.createdAt, in: db))
    }

    /// Stores `post` as the edit left it (caption, warning, sensitivity and media as stored now).
    package static func recordEdit(_ post: Post, in db: Transaction) throws {
        try db.postEdits.add(try version(of: post, at: post.editedAt ?? Date(), in: db))
    }

    /// The stored versions of `post`, oldest first; a post never edited has one, itself.
    package static func versions(of post: Post, in db: Transaction) throws -> [PostEdit] {
        let versions = try db.postEdits.versions(of: post.id)
        return versions.isEmpty ? [try version(of: post, at: post.createdAt, in: db)] : versions
    }

    /// The photos a version stored in the current form, or `nil` for an older version.
    package static func snapshot(of version: PostEdit) -> MediaSnapshot? {
        guard version.media.first == "{" else { return nil }
        return try? JSONDecoder().decode(MediaSnapshot.self, from: Data(version.media.utf8))
    }

    private static func version(of post: Post, at time: Date, in db: Transaction) throws -> PostEdit {
        let snapshot = MediaSnapshot(attachments: try db.media.attachments(of: post.id))
        let json = String(decoding: try JSONEncoder().encode(snapshot), as: UTF8.self)
        return PostEdit(postId: post.id, content: post.content, spoilerText: post.spoilerText, sensitive: post.sensitive,
                        media: json, createdAt: time)
    }
}
