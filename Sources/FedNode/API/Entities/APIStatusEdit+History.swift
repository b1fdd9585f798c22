import Core
import Foundation
import Storage

extension PostHistory {
    /// The versions of `post` as `StatusEdit` entities, oldest first; a post never edited has
    /// one, itself.
    static func entities(of post: Post, author: APIAccount, node: Node, in db: Transaction) throws -> [APIStatusEdit] {
        let renderer = EntityRenderer(node: node, viewer: nil, db: db)
        let decoder = APIResponse.decoder()
        return try versions(of: post, in: db).map { version in
            let media = snapshot(of: version).map { $0.attachments.map(renderer.attachment) }
                ?? (try? decoder.decode([APIMediaAttachment].self, from: Data(version.media.utf8))) ?? []
            return APIStatusEdit(content: version.content, spoilerText: version.spoilerText, sensitive: version.sensitive,
                                 createdAt: Timestamps.iso8601(version.createdAt), account: author, mediaAttachments: media)
        }
    }
}
