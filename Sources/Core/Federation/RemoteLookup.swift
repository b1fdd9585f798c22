import Activity
import Foundation
import Storage

/// Looks up what a URL someone pasted names, as Mastodon's search with `resolve` does: an
/// account (actor id or profile URL) or a post (object id or web address), known here or
/// fetched once from its origin and stored, so a person can follow, like or comment on it.
package struct RemoteLookup: Sendable {
    /// What a URL named.
    package enum Found: Sendable {
        /// An account, local or remote.
        case account(Account)
        /// A post, local or remote.
        case post(Post)
    }

    package let node: Node

    /// Acts for `node`.
    package init(node: Node) {
        self.node = node
    }

    /// The account or post at `url`.
    /// - Throws: `NodeError` when it is neither known nor fetchable (`.notFound` for a local
    ///   URL naming nothing, `.validation` for a document that is neither, fetch errors as they come).
    package func find(_ url: String) async throws(NodeError) -> Found {
        if let known = try await known(url) { return known }
        guard !node.urls.isLocal(url) else { throw .notFound("Record not found") }
        let document = try await ObjectFetcher(node: node).fetch(url)
        if RemoteActorResolver.isActor(document) {
            // One GET for the document; the origin's collection sizes are read as on any resolve.
            let counts = await RemoteCounts.fetch(of: document, node: node)
            return .account(try await node.remoteAccounts.store(document, counts: counts))
        }
        return .post(try await RemotePostResolver(node: node).store(fetched: document))
    }

    /// The account or post already stored under `url` (as id or web address).
    private func known(_ url: String) async throws(NodeError) -> Found? {
        do {
            return try await node.database.read { db -> Found? in
                if let account = try db.accounts.find(uriOrURL: url) { return .account(account) }
                return try db.posts.find(uriOrURL: url).map { .post($0) }
            }
        } catch { throw .internal("looking up \(url.prefix(100)): \(error)") }
    }
}
