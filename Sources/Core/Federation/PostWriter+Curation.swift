import Foundation
import Storage

extension PostWriter {
    /// What a new post means for readers' curated views: a public post reaches the home
    /// timelines of the local followers of its hashtags; a direct post updates the
    /// conversation of each local participant (unread for all but its author).
    package static func feedCuration(_ post: Post, mentions: [Account], in db: Transaction) throws {
        switch post.visibility {
        case .public where post.reblogOfId == nil:
            try db.followedTags.fanOut(post: post.id, author: post.accountId)
        case .direct:
            try recordConversation(post, mentions: mentions, in: db)
        default:
            break
        }
    }

    /// Updates the conversation of every local participant of direct post `post` who is in no
    /// block relation with its author.
    private static func recordConversation(_ post: Post, mentions: [Account], in db: Transaction) throws {
        let participants = Set(mentions.map(\.id) + [post.accountId])
        let locals = mentions.filter(\.isLocal).map(\.id) + (post.local ? [post.accountId] : [])
        let root = try db.conversations.threadRoot(of: post.id)
        for owner in Set(locals) {
            if owner != post.accountId, try Relationships.blocks(owner, post.accountId, in: db) { continue }
            try db.conversations.record(post: post.id, owner: owner, root: root, others: Array(participants),
                                        unread: owner != post.accountId)
        }
    }
}
