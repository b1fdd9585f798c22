import Activity
import Foundation
import Storage

/// Local posting: photo posts with captions and hashtags, comments, edits and deletes. Each
/// action stores its effects, its activity and its deliveries in one transaction.
public struct PostService: Sendable {
    package let node: Node

    /// What a person writes.
    public struct Draft: Sendable {
        /// Caption as typed; hashtags and @mentions are recognised in it.
        public var text: String
        /// Uploaded media to attach, in order.
        public var mediaIds: [Int64] = []
        /// Audience; `nil` for the author's default.
        public var visibility: Visibility?
        /// The post commented on.
        public var inReplyToId: Int64?
        /// Content warning.
        public var spoilerText: String = ""
        /// Whether the media is sensitive; `nil` for the author's default.
        public var sensitive: Bool?
        /// Language code; `nil` for the author's default.
        public var language: String?
        /// A poll to go with it.
        package var poll: PollService.Draft?
        /// The client's `Idempotency-Key`: a second create with the same key by the same author
        /// within an hour returns the first post instead of posting again.
        public var idempotencyKey: String?

        /// Creates a draft.
        public init(text: String, mediaIds: [Int64] = [], visibility: Visibility? = nil, inReplyToId: Int64? = nil) {
            self.text = text
            self.mediaIds = mediaIds
            self.visibility = visibility
            self.inReplyToId = inReplyToId
        }
    }

    /// Publishes a post (or a comment when `inReplyToId` is set) by `author`.
    /// - Throws: `NodeError.validation` for empty posts, `.notFound` for an unknown parent.
    public func create(_ draft: Draft, by author: Account) async throws(NodeError) -> Post {
        let text = draft.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty || !draft.mediaIds.isEmpty else { throw .validation("Validation failed: Text can't be blank") }
        try draft.poll?.validate(minimum: node.configuration.minimumPollDuration)
        let mentions = await resolveMentions(in: text)
        let id = Snowflake.next()
        var post = Post(id: id, uri: node.urls.status(author.username, id: id), accountId: author.id, local: true)
        post.url = post.uri
        post.text = draft.text
        post.content = render(draft.text, mentions: mentions)
        post.spoilerText = draft.spoilerText
        let row = post
        let stored = try await node.write("post") { db -> Post in
            // A moved account keeps signing in but posts from its new account only (Mastodon, GoToSocial).
            if try db.accountMoves.target(of: author.id) != nil { throw NodeError.validation("Validation failed: This account has moved") }
            if let key = draft.idempotencyKey, let earlier = try db.posts.created(withIdempotencyKey: key, by: author.id) {
                return earlier
            }
            var post = row
            let defaults = try db.postingDefaults.of(author.id)
            post.visibility = draft.visibility ?? defaults.visibility
            post.sensitive = draft.sensitive ?? defaults.sensitive
            post.language = draft.language ?? defaults.language
            if let parentId = draft.inReplyToId {
                guard let parent = try db.posts.find(id: parentId) else { throw NodeError.notFound("Record not found") }
                post.inReplyToId = parent.id
                post.inReplyToUri = parent.uri
                post.inReplyToAccountId = parent.accountId
            }
            let media = try db.media.find(ids: draft.mediaIds, ownedBy: author.id)
                .sorted { draft.mediaIds.firstIndex(of: $0.id)! < draft.mediaIds.firstIndex(of: $1.id)! }
            try PostWriter.insert(post, media: media, hashtags: TextParser.hashtags(in: draft.text), mentions: mentions, in: db)
            if let poll = draft.poll { try db.polls.save(poll.poll(of: post.id, now: post.createdAt)) }
            try deliver(PostToAS(urls: node.urls).create(post, parts: .read(post, in: db)), of: post, by: author, in: db)
            if let key = draft.idempotencyKey { try db.posts.recordIdempotencyKey(key, accountId: author.id, postId: post.id) }
            return post
        }
        node.deliverySignal.notify()
        await LinkPreviews.start(after: stored, node: node)
        return stored
    }

    /// Edits a local post's caption (and media, content warning, sensitivity, language: each
    /// left as it is when `nil`; and the alt text and focal points in `mediaEdits`), keeping
    /// the edit time; sends `Update`.
    public func edit(_ postId: Int64, text: String, mediaIds: [Int64]? = nil, spoilerText: String? = nil, sensitive: Bool? = nil,
                     language: String? = nil, mediaEdits: [MediaEdit] = [], by author: Account) async throws(NodeError) -> Post {
        let mentions = await resolveMentions(in: text)
        let content = render(text, mentions: mentions)
        let updated = try await node.write("post") { db -> Post in
            var post = try ownPost(postId, of: author, in: db)
            try PostHistory.keepPrevious(post, in: db)
            post.text = text
            post.content = content
            if let spoilerText { post.spoilerText = spoilerText }
            if let sensitive { post.sensitive = sensitive }
            if let language { post.language = language }
            post.editedAt = Date()
            post.updatedAt = post.editedAt!
            try db.posts.update(post)
            if let mediaIds { try db.media.setAttachments(of: post.id, to: mediaIds, ownedBy: author.id) }
            try Self.apply(mediaEdits, to: post.id, in: db)
            try PostWriter.setHashtags(TextParser.hashtags(in: text), of: post.id, in: db)
            try PostHistory.recordEdit(post, in: db)
            let converter = PostToAS(urls: node.urls)
            let note = converter.note(post, parts: try .read(post, in: db))
            let update = ActivityBuilder(urls: node.urls).update(note, actor: author, to: note.to, cc: note.cc)
            try deliver(update, of: post, by: author, in: db)
            return post
        }
        node.deliverySignal.notify()
        return updated
    }

    /// Changes the alt text and focal points of photos of `postId`, inside the edit's transaction.
    /// - Throws: `NodeError.validation` when an id is not a photo of the post (nothing is saved).
    private static func apply(_ edits: [MediaEdit], to postId: Int64, in db: Transaction) throws {
        for edit in edits {
            guard var media = try db.media.find(id: edit.id), media.postId == postId else {
                throw NodeError.validation("Media \(edit.id) not found")
            }
            if let description = edit.description { media.description = description }
            if let focus = edit.focus { (media.focusX, media.focusY) = (focus.x, focus.y) }
            try db.media.update(media)
        }
    }

    /// Deletes a local post everywhere: rows here, `Delete` to everyone who got it.
    public func delete(_ postId: Int64, by author: Account) async throws(NodeError) {
        try await node.write("post") { db in
            let post = try ownPost(postId, of: author, in: db)
            let note = PostToAS(urls: node.urls).note(post, parts: try .read(post, in: db))
            let delete = ActivityBuilder(urls: node.urls).deletePost(post, author: author, to: note.to, cc: note.cc)
            try deliver(delete, of: post, by: author, in: db, recordPost: false)
            try db.accounts.replaceTombstone(Tombstone(uri: post.uri, accountId: author.id))
            try db.posts.delete(post)
        }
        node.deliverySignal.notify()
    }

    /// Queues `activity` to everyone who should see `post`: followers (unless direct), mentioned
    /// and replied-to remote accounts.
    private func deliver(_ activity: ASObject, of post: Post, by author: Account, in db: Transaction, recordPost: Bool = true) throws {
        var inboxes = post.visibility == .direct ? [] : try Outbox.followerInboxes(of: author.id, in: db)
        let involved = try db.accounts.remoteInvolved(inPost: post.id, inReplyToAccountId: post.inReplyToAccountId)
        inboxes += involved.flatMap(Outbox.inbox(of:))
        try Outbox.record(activity, sender: author, postId: recordPost ? post.id : nil, inboxes: inboxes, in: db)
    }

    private func ownPost(_ id: Int64, of author: Account, in db: Transaction) throws -> Post {
        guard let post = try db.posts.find(id: id), post.reblogOfId == nil else { throw NodeError.notFound("Record not found") }
        guard post.accountId == author.id else { throw NodeError.forbidden("This action is not allowed") }
        return post
    }

    private func render(_ text: String, mentions: [Account]) -> String {
        TextParser.html(fromPlainText: text, hashtagURL: { node.urls.tag($0.lowercased()) }, mentionURL: { mention in
            mentions.first { $0.username.lowercased() == mention.username.lowercased()
                && ($0.domain ?? node.urls.domain) == (mention.domain?.lowercased() ?? node.urls.domain) }?.url
        })
    }

    /// Accounts for the @mentions in `text`; remote ones are resolved through WebFinger and
    /// unresolvable ones are left as plain text.
    private func resolveMentions(in text: String) async -> [Account] {
        var accounts: [Account] = []
        for mention in TextParser.mentions(in: text).prefix(20) {
            let resolver = RemoteActorResolver(node: node)
            if let account = try? await resolver.resolve(username: mention.username, domain: mention.domain ?? node.urls.domain) {
                accounts.append(account)
            }
        }
        return accounts
    }
}
