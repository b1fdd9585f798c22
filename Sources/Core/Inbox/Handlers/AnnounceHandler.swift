import Activity
import Foundation
import Storage

/// `Announce` (boost): the boosted post is stored if new (fetched from its origin), then the
/// boost goes into the booster's local followers' timelines and notifies a local author.
package struct AnnounceHandler: InboxHandler {
    package func handle(_ context: InboxContext) async throws(NodeError) -> InboxOutcome {
        guard let boostId = context.activity.id else { return .ignored("Announce without id") }
        if try await context.post(boostId) != nil { return .processed }
        let original = try await originalPost(context)
        guard let original, original.visibility == .public || original.visibility == .unlisted else {
            return .ignored("Announce of an unknown or non-public post")
        }
        let booster = context.actor
        var boost = Post(uri: boostId, accountId: booster.id, local: false)
        boost.reblogOfId = original.id
        boost.visibility = Audience.visibility(of: context.activity, author: booster)
        let row = boost
        try await context.write { db in
            guard try !db.posts.exists(uri: boostId) else { return }
            try db.posts.insert(row)
            try db.timelines.fanOut(post: row.id, author: booster.id, includeAuthor: false)
            if original.local, try !Relationships.blocks(original.accountId, booster.id, in: db) {
                try db.notifications.add(
                    AccountNotification(accountId: original.accountId, fromAccountId: booster.id, type: .reblog, postId: original.id))
            }
        }
        return .processed
    }

    /// The boosted post: stored already, or fetched from its origin and stored as its author's.
    private func originalPost(_ context: InboxContext) async throws(NodeError) -> Post? {
        guard let id = context.objectId else { return nil }
        if let known = try await context.post(id) { return known }
        let object = try await ObjectFetcher(node: context.node).fetch(id)
        guard ASToPost.isPost(object), let authorURI = object.attributedTo,
            ASToAccount.authority(of: authorURI) == ASToAccount.authority(of: id)
        else { return nil }
        let author = try await RemoteActorResolver(node: context.node).resolve(uri: authorURI)
        let inbound = try await InboundPost.make(object, author: author, context: context)
        try await context.write { db in
            guard try !db.posts.exists(uri: id) else { return }
            // Stored without fan-out: it reaches timelines through the boost only.
            try inbound.insertQuietly(in: db)
        }
        return try await context.post(id)
    }
}
