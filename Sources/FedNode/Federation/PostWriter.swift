import Foundation
import GRDB
import Storage

/// Writes a post with everything hanging off it (media, hashtags, mentions, timeline entries,
/// notifications) inside the caller's transaction. Shared by local posting and inbound Create.
enum PostWriter {
    /// Inserts `post` and its parts; fans it out and notifies the parent's and mentioned local authors.
    static func insert(_ post: Post, media: [MediaAttachment], hashtags: [String], mentions: [Account], in db: Transaction) throws {
        try post.insert(db.grdb)
        for (position, var item) in media.enumerated() {
            item.postId = post.id
            item.position = position
            try item.save(db.grdb)
        }
        try setHashtags(hashtags, of: post.id, in: db)
        for account in mentions { try PostMention(postId: post.id, accountId: account.id).insert(db.grdb, onConflict: .ignore) }
        if post.visibility == .direct {
            let readers = mentions.filter(\.isLocal).map(\.id) + (post.local ? [post.accountId] : [])
            try HomeTimeline.add(postId: post.id, authorId: post.accountId, readers: readers, in: db.grdb)
        } else {
            try HomeTimeline.fanOut(postId: post.id, authorId: post.accountId, includeAuthor: post.local, in: db.grdb)
        }
        try notifyInvolved(post, mentions: mentions, in: db)
    }

    /// Replaces the hashtags of a post (creating new hashtag rows, first spelling kept).
    static func setHashtags(_ names: [String], of postId: Int64, in db: Transaction) throws {
        try db.grdb.execute(sql: "DELETE FROM post_hashtags WHERE post_id = ?", arguments: [postId])
        for name in names.prefix(30) {
            let tag = try Hashtag.filter(Column("name") == name).fetchOne(db.grdb) ?? Hashtag(name: name).inserted(db.grdb)
            try PostHashtag(postId: postId, hashtagId: tag.id).insert(db.grdb, onConflict: .ignore)
        }
    }

    /// A reply notifies the parent's local author; a mention notifies each mentioned local account.
    private static func notifyInvolved(_ post: Post, mentions: [Account], in db: Transaction) throws {
        var recipients = Set(mentions.filter(\.isLocal).map(\.id))
        if let parentId = post.inReplyToId, let parent = try Post.fetchOne(db.grdb, key: parentId),
            let author = try Account.fetchOne(db.grdb, key: parent.accountId), author.isLocal {
            recipients.insert(author.id)
        }
        recipients.remove(post.accountId)
        for recipient in recipients where try !Relationships.blocks(recipient, post.accountId, in: db) {
            try AccountNotification(accountId: recipient, fromAccountId: post.accountId, type: .mention, postId: post.id)
                .insert(db.grdb, onConflict: .ignore)
        }
    }
}

/// Questions about follows and blocks asked while writing.
enum Relationships {
    /// Whether `a` blocks `b` or `b` blocks `a`.
    static func blocks(_ a: Int64, _ b: Int64, in db: Transaction) throws -> Bool {
        try Block.filter((Column("account_id") == a && Column("target_account_id") == b)
                         || (Column("account_id") == b && Column("target_account_id") == a)).fetchCount(db.grdb) > 0
    }

    /// Whether `blocker` blocks `blocked` (one direction).
    static func blocking(_ blocker: Int64, _ blocked: Int64, in db: Transaction) throws -> Bool {
        try Block.filter(Column("account_id") == blocker && Column("target_account_id") == blocked).fetchCount(db.grdb) > 0
    }

    /// The accepted follow of `follower` to `target`, if any.
    static func isFollowing(_ follower: Int64, _ target: Int64, in db: Transaction) throws -> Bool {
        try Follow.filter(Column("account_id") == follower && Column("target_account_id") == target && Column("state") == FollowState.accepted)
            .fetchCount(db.grdb) > 0
    }
}
