import Activity
import Foundation
import Storage

/// Finds remote posts by object id or web address: from the database when known, otherwise
/// fetched from their origin (a signed, SSRF-guarded GET whose answer must come from the
/// post's own host) and stored exactly as an inbound `Create` stores them. Used by search with
/// `resolve`, by `/authorize_interaction`, and to complete threads.
package struct RemotePostResolver: Sendable {
    /// How many ancestors a thread is completed upward.
    package static let maxAncestors = 8
    package let node: Node

    /// The post at `url`, fetched and stored when unknown.
    /// - Parameter replyTo: When set, the fetched object must be a reply to this object id (an
    ///   item of that post's `replies` collection); anything else is refused.
    /// - Throws: `NodeError` (`.validation` for a document that is not a post, `.forbidden`
    ///   for a blocked domain or a post whose author is on another host, fetch errors as they come).
    package func resolve(_ url: String, replyTo: String? = nil, completeThread: Bool = true) async throws(NodeError) -> Post {
        if let known = try await known(url) { return known }
        guard !node.urls.isLocal(url) else { throw .notFound("Record not found") }
        return try await store(fetched: try await ObjectFetcher(node: node).fetch(url), replyTo: replyTo, completeThread: completeThread)
    }

    /// Stores a post document fetched from its origin; a `Create` (some servers share activity
    /// ids) stands for its object, fetched from its own origin unless embedded from the same host.
    package func store(fetched document: ASObject, replyTo: String? = nil, completeThread: Bool = true) async throws(NodeError) -> Post {
        var object = document
        if document.hasType("Create"), let inner = document.object, let id = inner.id {
            object = try await sameHostObject(inner, id: id, of: document)
        }
        if let replyTo, object.inReplyTo != replyTo {
            throw .validation("\((object.id ?? "").prefix(100)) is not a reply to \(replyTo.prefix(100))")
        }
        return try await store(object, completeThread: completeThread)
    }

    /// Stores `object`, whose origin was checked, with its author resolved from the same host.
    /// - Parameter completeThread: Whether an unknown parent is then fetched in the background
    ///   (off when the caller is itself walking up the thread, which bounds the depth).
    package func store(_ object: ASObject, completeThread: Bool = true) async throws(NodeError) -> Post {
        guard ASToPost.isPost(object), let uri = object.id else { throw .validation("Not a post") }
        if let known = try await known(uri) { return known }
        guard let authorURI = object.attributedTo, ASToAccount.authority(of: authorURI) == ASToAccount.authority(of: uri) else {
            throw .forbidden("\(uri.prefix(100)) is attributed to an actor on another host")
        }
        let author = try await node.remoteAccounts.resolve(uri: authorURI)
        let context = InboxContext(node: node, activity: object, actor: author)
        let inbound = try await InboundPost.make(object, author: author, context: context)
        let stored = try await context.write { db -> Post in
            if let existing = try db.posts.find(uri: uri) { return existing }
            try inbound.insert(in: db)
            return inbound.post
        }
        if completeThread { await ThreadCompletion.start(after: stored, node: node) }
        return stored
    }

    /// The embedded `inner` object of `activity` when it comes from the activity's host,
    /// otherwise fetched from its own origin.
    private func sameHostObject(_ inner: ASReference, id: String, of activity: ASObject) async throws(NodeError) -> ASObject {
        if let embedded = inner.object, ASToAccount.authority(of: id) == activity.id.flatMap(ASToAccount.authority(of:)) {
            return embedded
        }
        return try await ObjectFetcher(node: node).fetch(id)
    }

    private func known(_ url: String) async throws(NodeError) -> Post? {
        do { return try await node.database.read { db in try db.posts.find(uriOrURL: url) } } catch {
            throw .internal("reading post: \(error)")
        }
    }
}
