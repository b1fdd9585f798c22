import Foundation
import Storage

/// Keeps the versions of edited posts, as Mastodon's status edits: on the first edit the
/// version before it is stored (published at the post's creation), then every new version.
/// Both calls run inside the edit's own transaction, for local edits and inbound `Update`s.
enum PostHistory {
    /// Stores `post` as it is before an edit, unless versions are already stored. Call it
    /// before the edit changes the post or its media.
    static func keepPrevious(_ post: Post, node: Node, in db: Transaction) throws {
        guard try !db.postEdits.exists(of: post.id) else { return }
        // A post edited before versions were kept only has its latest version left.
        try db.postEdits.add(try version(of: post, at: post.editedAt ?? post.createdAt, node: node, in: db))
    }

    /// Stores `post` as the edit left it (caption, warning, sensitivity and media as stored now).
    static func recordEdit(_ post: Post, node: Node, in db: Transaction) throws {
        try db.postEdits.add(try version(of: post, at: post.editedAt ?? Date(), node: node, in: db))
    }

    /// The versions of `post` as `StatusEdit` entities, oldest first; a post never edited has
    /// one, itself.
    static func entities(of post: Post, author: APIAccount, node: Node, in db: Transaction) throws -> [APIStatusEdit] {
        var versions = try db.postEdits.versions(of: post.id)
        if versions.isEmpty { versions = [try version(of: post, at: post.createdAt, node: node, in: db)] }
        let decoder = APIResponse.decoder()
        return versions.map { version in
            let media = (try? decoder.decode([APIMediaAttachment].self, from: Data(version.media.utf8))) ?? []
            return APIStatusEdit(content: version.content, spoilerText: version.spoilerText, sensitive: version.sensitive,
                                 createdAt: EntityRenderer.timestamp(version.createdAt), account: author, mediaAttachments: media)
        }
    }

    private static func version(of post: Post, at time: Date, node: Node, in db: Transaction) throws -> PostEdit {
        let media = try EntityRenderer(node: node, viewer: nil, db: db).media(of: post.id)
        let json = String(decoding: try APIResponse.encoder().encode(media), as: UTF8.self)
        return PostEdit(postId: post.id, content: post.content, spoilerText: post.spoilerText, sensitive: post.sensitive,
                        media: json, createdAt: time)
    }
}
