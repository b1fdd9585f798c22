import Core
import Foundation
import Storage

/// A subscriber as the router sees it: who is watching which streams.
struct StreamListener: Sendable {
    /// The subscription's id in the hub.
    let id: Int
    /// The account watching; `nil` for anonymous public streams.
    let viewer: Account?
    /// The subscribed streams.
    let channels: Set<StreamChannel>
}

/// One rendered message for one subscriber on one of its streams.
struct StreamDelivery: Sendable {
    /// The subscription.
    let subscriber: Int
    /// The stream it is delivered on (still checked on delivery: the client may have left it).
    let channel: StreamChannel
    /// The message.
    let message: StreamMessage
}

/// Decides who hears about one `stream_events` row and renders what they hear, per viewer,
/// inside one database read (Mastodon's `FanOutOnWriteService` and streaming server rules):
/// - `post`: `update` on the `user` stream of every local account whose home timeline holds it,
///   and on the public and hashtag streams when it is a public, top-level (or self-reply) post;
/// - `edit`: `status.update` to the same audience;
/// - `delete`: `delete` with the id to the author's and their local followers' `user` streams
///   and to the public streams the post went to;
/// - `notification`: `notification` on the recipient's `user` and `user:notification` streams.
/// Nothing reaches a viewer who may not see the post (`PostVisibility`, `NotificationVisibility`).
struct StreamRouter {
    /// The node (rendering).
    let node: Node
    /// The current read.
    let db: Transaction

    /// What routing one event produced.
    struct Outcome: Sendable {
        /// Messages to deliver.
        var deliveries: [StreamDelivery] = []
        /// For post and edit events: the public streams the post belongs to, kept by the hub so
        /// that its delete reaches the same streams.
        var audience: (postId: Int64, channels: Set<StreamChannel>)?
    }

    /// Routes `event` to `listeners`.
    /// - Parameter deletedAudience: For deletes, the public streams the post was routed to, if
    ///   the hub saw it; `nil` when unknown (then the untagged public streams get the delete).
    func route(_ event: StreamEvent, to listeners: [StreamListener], deletedAudience: Set<StreamChannel>?) throws -> Outcome {
        switch event.kind {
        case .post, .edit: try routePost(event, to: listeners)
        case .delete: Outcome(deliveries: try routeDelete(event, to: listeners, audience: deletedAudience))
        case .notification: Outcome(deliveries: try routeNotification(event, to: listeners))
        }
    }

    private func routePost(_ event: StreamEvent, to listeners: [StreamListener]) throws -> Outcome {
        guard let postId = event.postId, let post = try db.posts.find(id: postId) else { return Outcome() }
        let audience = try publicAudience(of: post)
        var outcome = Outcome(audience: (post.id, audience))
        let readers = Set(try db.timelines.homeReaders(of: post.id))
        let name = event.kind == .post ? "update" : "status.update"
        var rendered: [Int64: String?] = [:]  // one rendering per viewer (0: anonymous)
        for listener in listeners {
            var channels = listener.channels.intersection(audience)
            if let viewer = listener.viewer, readers.contains(viewer.id), listener.channels.contains(.user) { channels.insert(.user) }
            if let viewer = listener.viewer { channels.formUnion(try lists(showing: post, to: viewer, among: listener.channels)) }
            if event.kind == .post, let viewer = listener.viewer, listener.channels.contains(.direct), post.visibility == .direct,
               let message = try conversationMessage(post, for: viewer) {
                outcome.deliveries.append(StreamDelivery(subscriber: listener.id, channel: .direct, message: message))
            }
            guard !channels.isEmpty else { continue }
            if let viewer = listener.viewer, try db.mutes.hides(post: post.id, from: viewer.id) { continue }
            if let viewer = listener.viewer, try db.accountDomainBlocks.hides(post: post.id, from: viewer.id) { continue }
            let key = listener.viewer?.id ?? 0
            let payload: String?
            if let cached = rendered[key] { payload = cached } else {
                payload = try statusPayload(post, for: listener.viewer)
                rendered.updateValue(payload, forKey: key)
            }
            guard let payload else { continue }
            outcome.deliveries += channels.map {
                StreamDelivery(subscriber: listener.id, channel: $0, message: StreamMessage(stream: $0.labels, event: name, payload: payload))
            }
        }
        return outcome
    }

    private func routeDelete(_ event: StreamEvent, to listeners: [StreamListener], audience: Set<StreamChannel>?) throws -> [StreamDelivery] {
        guard let postId = event.postId, let authorId = event.accountId else { return [] }
        var personal = Set(try db.follows.localFollowerIds(of: authorId))
        personal.insert(authorId)
        let publicChannels = audience ?? StreamChannel.untaggedPublic
        var deliveries: [StreamDelivery] = []
        for listener in listeners {
            var channels = listener.channels.intersection(publicChannels)
            if let viewer = listener.viewer, personal.contains(viewer.id), listener.channels.contains(.user) { channels.insert(.user) }
            deliveries += channels.map {
                StreamDelivery(subscriber: listener.id, channel: $0, message: StreamMessage(stream: $0.labels, event: "delete", payload: String(postId)))
            }
        }
        return deliveries
    }

    private func routeNotification(_ event: StreamEvent, to listeners: [StreamListener]) throws -> [StreamDelivery] {
        let personal: Set<StreamChannel> = [.user, .userNotification]
        let targets = listeners.filter { $0.viewer?.id == event.accountId && !$0.channels.isDisjoint(with: personal) }
        guard let recipient = targets.first?.viewer, let id = event.notificationId,
            let item = try db.notifications.find(id: id), try NotificationVisibility.isVisible(item, in: db),
            let entity = try EntityRenderer(node: node, viewer: recipient, db: db).notification(item)
        else { return [] }
        let payload = try Self.json(entity)
        return targets.flatMap { listener in
            listener.channels.intersection(personal).map {
                StreamDelivery(subscriber: listener.id, channel: $0, message: StreamMessage(stream: $0.labels, event: "notification", payload: payload))
            }
        }
    }

    /// Those of `channels` that are lists of `viewer` whose timeline shows `post`.
    private func lists(showing post: Post, to viewer: Account, among channels: Set<StreamChannel>) throws -> Set<StreamChannel> {
        var shown: Set<StreamChannel> = []
        for case .list(let id) in channels where try db.lists.shows(post: post.id, in: id, owner: viewer.id) { shown.insert(.list(id)) }
        return shown
    }

    /// The `conversation` event of `viewer`'s conversation that direct post `post` is now the
    /// last of; `nil` when they are not in it or may not see the post.
    private func conversationMessage(_ post: Post, for viewer: Account) throws -> StreamMessage? {
        guard try PostVisibility.canSee(post, viewer: viewer.id, in: db),
              let conversation = try db.conversations.find(lastPost: post.id, owner: viewer.id),
              let entity = try ConversationsController.render([conversation], viewer: viewer, node: node, db: db).first
        else { return nil }
        return StreamMessage(stream: StreamChannel.direct.labels, event: "conversation", payload: try Self.json(entity))
    }

    /// The public and hashtag streams `post` belongs to: public visibility, not a boost, and not
    /// a reply to someone else (Mastodon keeps those off public streams).
    private func publicAudience(of post: Post) throws -> Set<StreamChannel> {
        guard post.visibility == .public, post.reblogOfId == nil else { return [] }
        if post.inReplyToUri != nil || post.inReplyToId != nil, post.inReplyToAccountId != post.accountId { return [] }
        let hasMedia = try db.media.count(of: post.id) > 0
        let tags = try db.posts.hashtagNames(of: post.id).map { $0.lowercased() }
        return StreamChannel.publicAudience(local: post.local, hasMedia: hasMedia, tags: tags)
    }

    /// The status as `viewer` sees it, or `nil` when they may not see it.
    private func statusPayload(_ post: Post, for viewer: Account?) throws -> String? {
        guard try PostVisibility.canSee(post, viewer: viewer?.id, in: db) else { return nil }
        do {
            return try Self.json(try EntityRenderer(node: node, viewer: viewer, db: db).status(post))
        } catch NodeError.notFound {
            return nil
        }
    }

    private static func json(_ value: some Encodable) throws -> String {
        String(decoding: try APIResponse.bytes(value), as: UTF8.self)
    }
}
