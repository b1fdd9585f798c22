import Activity
import Foundation
import Storage

/// `Create` of a Note/Image/Article/Page/Question: the post (with its poll) is stored (a reply becomes a comment on its
/// parent, fetched first when unknown), fanned out to local followers and notified to the
/// parent's and mentioned authors. A `Note` named after a choice of one of our polls is a vote.
package struct CreateHandler: InboxHandler {
    package func handle(_ context: InboxContext) async throws(NodeError) -> InboxOutcome {
        let object = try await context.trustedObject()
        if ASToPost.isVote(object), let outcome = try await vote(object, context) { return outcome }
        guard ASToPost.isPost(object) else { return .ignored("Create of \(object.type ?? "untyped") object") }
        // Nobody may create someone else's object (ActivityPub 7: the actor is the author).
        guard (object.attributedTo ?? context.actor.uri) == context.actor.uri, context.isActorsOwn(object.id) else {
            throw .forbidden("Create of an object attributed to someone else")
        }
        let known = try await InboundPost.lookUp(object, context: context, checkingStored: true)
        if known.stored { return .processed }
        let post = try InboundPost.make(object, author: context.actor, known: known)
        try await context.write { db in
            guard try !db.posts.exists(uri: post.post.uri) else { return }
            try post.insert(in: db)
        }
        // A reply to a post never seen here brings its parent chain, off the worker's path.
        await ThreadCompletion.start(after: post.post, node: context.node)
        await LinkPreviews.start(after: post.post, node: context.node)
        return .processed
    }

    /// Counts a vote for one of our polls; `nil` when the object replies to something that is
    /// not a local poll (then it is an ordinary reply).
    private func vote(_ object: ASObject, _ context: InboxContext) async throws(NodeError) -> InboxOutcome? {
        guard let target = try await context.post(object.inReplyTo), target.local else { return nil }
        guard (object.attributedTo ?? context.actor.uri) == context.actor.uri, context.isActorsOwn(object.id) else {
            throw .forbidden("A vote attributed to someone else")
        }
        let (name, uri, voter, urls) = (object.name ?? "", object.id, context.actor, context.node.urls)
        let outcome = try await context.write { db -> InboxOutcome? in
            guard try db.polls.find(post: target.id) != nil else { return nil }
            let counted = try PollService.receiveVote(name, uri: uri, for: target, from: voter, urls: urls, in: db)
            return counted ? .processed : .ignored("vote not counted (ended, unknown choice or repeated)")
        }
        if outcome != nil { context.node.deliverySignal.notify() }
        return outcome
    }
}

/// A remote post about to be stored, with its parts resolved against our database.
package struct InboundPost: Sendable {
    package var post: Post
    package var media: [MediaAttachment]
    package var hashtags: [String]
    package var mentions: [Account]
    /// Its poll, for a `Question`.
    package var poll: Poll?

    /// Stores the post with its photos, hashtags, mentions and poll, fanned out and notified
    /// (`PostWriter.insert`).
    package func insert(in db: Transaction) throws {
        try PostWriter.insert(post, media: media, hashtags: hashtags, mentions: mentions, in: db)
        if let poll { try db.polls.save(poll) }
    }

    /// Stores the post with its photos, hashtags and poll, without fan-out or notifications
    /// (a boosted post reaches timelines through the boost only).
    package func insertQuietly(in db: Transaction) throws {
        try db.posts.insert(post)
        for (position, var attachment) in media.enumerated() {
            attachment.postId = post.id
            attachment.position = position
            try db.media.insert(attachment)
        }
        try PostWriter.setHashtags(hashtags, of: post.id, in: db)
        if let poll { try db.polls.save(poll) }
    }

    /// What the database knows of an object about to be stored, read in one go: whether it is
    /// stored already (when asked), its parent and the accounts it mentions.
    package struct Known: Sendable {
        package var stored = false
        package var parent: Post?
        package var mentions: [Account]
    }

    /// Reads what `object`'s rows depend on (nothing unknown is fetched here).
    /// - Parameter checkingStored: Whether to ask if the object is stored already (a `Create`).
    package static func lookUp(_ object: ASObject, context: InboxContext, checkingStored: Bool = false) async throws(NodeError) -> Known {
        let (uri, parentURI, mentionURIs) = (checkingStored ? object.id : nil, object.inReplyTo, ASToPost.mentionURIs(object))
        do {
            return try await context.node.database.read { db in
                Known(stored: try uri.map { try db.posts.exists(uri: $0) } ?? false,
                      parent: try parentURI.flatMap { try db.posts.find(uri: $0) },
                      mentions: try db.accounts.find(uris: mentionURIs))
            }
        } catch { throw .internal("reading what the post refers to: \(error)") }
    }

    /// Builds the rows for `object` by `author`; the parent and mentions are matched to known
    /// posts and accounts (nothing unknown is fetched here).
    package static func make(_ object: ASObject, author: Account, context: InboxContext, now: Date = Date()) async throws(NodeError) -> InboundPost {
        try make(object, author: author, known: try await lookUp(object, context: context), now: now)
    }

    /// Builds the rows for `object` by `author` from what `lookUp` read.
    package static func make(_ object: ASObject, author: Account, known: Known, now: Date = Date()) throws(NodeError) -> InboundPost {
        guard let uri = object.id else { throw .badRequest("Object without id") }
        let published = min(object.published ?? now, now)
        let (parent, mentions) = (known.parent, known.mentions)
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
                           hashtags: ASToPost.hashtags(object), mentions: mentions, poll: ASToPost.poll(object, postId: post.id))
    }
}
