import Foundation
import Storage

/// Brings the missing part of a thread: a remote reply whose parent this node never saw
/// fetches the parent, then its parent, up to `RemotePostResolver.maxAncestors` posts, in the
/// background (the inbox worker and the request that stored the reply never wait on it). Each
/// ancestor is fetched from its own origin and stored through the `Create` path; stored
/// replies waiting for it are linked to it as it arrives.
package enum ThreadCompletion {
    /// Starts completing the thread above `post` when its parent is unknown; returns at once.
    package static func start(after post: Post, node: Node) async {
        guard !post.local, post.inReplyToId == nil, let parent = post.inReplyToUri else { return }
        await node.backgroundJobs.start("thread \(parent)") {
            await fetchAncestors(from: parent, node: node)
        }
    }

    /// Fetches the post `uri` and, while they are unknown, its ancestors.
    /// - Returns: How many posts were walked (stored or already known).
    @discardableResult
    package static func fetchAncestors(from uri: String, node: Node) async -> Int {
        var next: String? = uri
        var walked = 0
        while let current = next, walked < RemotePostResolver.maxAncestors {
            do {
                let post = try await RemotePostResolver(node: node).resolve(current, completeThread: false)
                walked += 1
                next = post.inReplyToId == nil ? post.inReplyToUri : nil
            } catch {
                node.logger.info("thread completion stopped", metadata: ["uri": "\(current.prefix(200))", "error": "\(error)"])
                return walked
            }
        }
        return walked
    }
}
