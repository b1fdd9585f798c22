import Activity
import Foundation
import Storage

/// `Create` of a Note/Image/Article/Page: the post is stored (a reply becomes a comment on its
/// parent, fetched first when unknown), fanned out to local followers and notified to the
/// parent's and mentioned authors.
struct CreateHandler: InboxHandler {
    func handle(_ context: InboxContext) async throws(NodeError) -> InboxOutcome {
        let object = try await context.trustedObject()
        guard ASToPost.isPost(object) else { return .ignored("Create of \(object.type ?? "untyped") object") }
        // Nobody may create someone else's object (ActivityPub 7: the actor is the author).
        guard (object.attributedTo ?? context.actor.uri) == context.actor.uri, context.isActorsOwn(object.id) else {
            throw .forbidden("Create of an object attributed to someone else")
        }
        if try await context.post(object.id) != nil { return .processed }
        let post = try await InboundPost.make(object, author: context.actor, context: context)
        try await context.write { db in
            guard try !db.posts.exists(uri: post.post.uri) else { return }
            try PostWriter.insert(post.post, media: post.media, hashtags: post.hashtags, mentions: post.mentions, in: db)
        }
        // A reply to a post never seen here brings its parent chain, off the worker's path.
        await ThreadCompletion.start(after: post.post, node: context.node)
        await LinkPreviews.start(after: post.post, node: context.node)
        return .processed
    }
}

/// A remote post about to be stored, with its parts resolved against our database.
struct InboundPost: Sendable {
    var post: Post
    var media: [MediaAttachment]
    var hashtags: [String]
    var mentions: [Account]

    /// Builds the rows for `object` by `author`; the parent and mentions are matched to known
    /// posts and accounts (nothing unknown is fetched here).
    static func make(_ object: ASObject, author: Account, context: InboxContext, now: Date = Date()) async throws(NodeError) -> InboundPost {
        guard let uri = object.id else { throw .badRequest("Object without id") }
        let published = min(object.published ?? now, now)
        let parent = try await context.post(object.inReplyTo)
        let mentionURIs = ASToPost.mentionURIs(object)
        let mentions: [Account]
        do {
            mentions = try await context.node.database.read { db in try db.accounts.find(uris: mentionURIs) }
        } catch { throw .internal("reading mentions: \(error)") }
        var post = Post(id: Snowflake.at(published), uri: uri, accountId: author.id, local: false, createdAt: published)
        post.url = RemoteLimits.webURL(object.url) ?? uri
        post.inReplyToUri = object.inReplyTo
        post.inReplyToId = parent?.id
        post.inReplyToAccountId = parent?.accountId
        post.content = ASToPost.content(object)
        post.spoilerText = HTMLSanitizer.plainText(RemoteLimits.truncated(object.summary ?? "", to: RemoteLimits.summary))
        post.sensitive = object.sensitive ?? false
        post.visibility = Audience.visibility(of: object, author: author)
        post.language = object.contentMap?.keys.sorted().first.map { RemoteLimits.truncated($0, to: 16) }
        post.editedAt = object.updated.flatMap { $0 > published ? $0 : nil }
        return InboundPost(post: post, media: ASToPost.media(object, accountId: author.id, now: now),
                           hashtags: ASToPost.hashtags(object), mentions: mentions)
    }
}
