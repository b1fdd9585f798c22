import Foundation
import Storage

/// Writes a post with everything hanging off it (media, hashtags, mentions, timeline entries,
/// notifications) inside the caller's transaction. Shared by local posting and inbound Create.
package enum PostWriter {
    /// Inserts `post` and its parts; fans it out and notifies the parent's and mentioned local authors.
    package static func insert(_ post: Post, media: [MediaAttachment], hashtags: [String], mentions: [Account], in db: Transaction) throws {
        try db.posts.insert(post)
        // Replies that arrived before this post (then fetched as their parent) now hang under it.
        if !post.local { try db.posts.adoptReplies(of: post) }
        for (position, var item) in media.enumerated() {
            item.postId = post.id
            item.position = position
            // A remote post's photos are new rows; a local post's are its uploads, stored before it.
            if post.local { try db.media.save(item) } else { try db.media.insert(item) }
        }
        try db.posts.addHashtags(Array(hashtags.prefix(maxHashtags)), to: post.id)
        for account in mentions { try db.posts.addMention(post: post.id, account: account.id) }
        if post.visibility == .direct {
            let readers = mentions.filter(\.isLocal).map(\.id) + (post.local ? [post.accountId] : [])
            try db.timelines.add(post: post.id, author: post.accountId, readers: readers)
        } else {
            try db.timelines.fanOut(post: post.id, author: post.accountId, includeAuthor: post.local)
        }
        try feedCuration(post, mentions: mentions, in: db)
        try notifyInvolved(post, mentions: mentions, in: db)
    }

    /// The most hashtags a post keeps.
    package static let maxHashtags = 30

    /// Replaces the hashtags of a post (creating new hashtag rows, first spelling kept).
    package static func setHashtags(_ names: [String], of postId: Int64, in db: Transaction) throws {
        try db.posts.replaceHashtags(Array(names.prefix(maxHashtags)), of: postId)
    }

    /// A reply notifies the parent's local author; a mention notifies each mentioned local account.
    private static func notifyInvolved(_ post: Post, mentions: [Account], in db: Transaction) throws {
        var recipients = Set(mentions.filter(\.isLocal).map(\.id))
        if let parentId = post.inReplyToId, let parent = try db.posts.find(id: parentId),
            let author = try db.accounts.find(id: parent.accountId), author.isLocal {
            recipients.insert(author.id)
        }
        recipients.remove(post.accountId)
        for recipient in recipients where try !Relationships.blocks(recipient, post.accountId, in: db) {
            try db.notifications.add(
                AccountNotification(accountId: recipient, fromAccountId: post.accountId, type: .mention, postId: post.id))
        }
    }
}
