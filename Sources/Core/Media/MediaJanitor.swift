import Foundation
import Logging
import ServiceLifecycle
import Storage

/// Keeps the media directory to what is used: uploads never attached to a post are dropped
/// after a day (as Mastodon does), files no row refers to any more (deleted posts, replaced
/// avatars) are removed, and expired remote-media cache entries are evicted. Runs at start and
/// then hourly.
public struct MediaJanitor: Service {
    package let node: Node
    /// How long an unattached upload is kept.
    public static let unattachedLifetime: TimeInterval = 86_400
    /// Files younger than this are never swept (an upload may not be recorded yet).
    public static let grace: TimeInterval = 3_600

    /// A janitor for `node`.
    public init(node: Node) { self.node = node }

    /// Cleans now and every hour until shutdown.
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await node.runScheduled("media-janitor", every: 3_600) { await clean() }
        }
    }

    /// One pass.
    /// - Parameters:
    ///   - now: The current time (for unattached uploads).
    ///   - grace: Files written more recently are kept.
    /// - Returns: The relative paths of the files removed.
    @discardableResult
    public func clean(now: Date = Date(), grace: TimeInterval = Self.grace) async -> [String] {
        do {
            let referenced = try await node.database.write { db -> Set<String> in
                try db.media.deleteUnattached(createdBefore: now.addingTimeInterval(-Self.unattachedLifetime))
                return try Self.referencedPaths(in: db)
            }
            let store = node.mediaStorage
            let removed = try store.sweep(referenced: referenced, minimumAge: grace)
            await node.remoteMedia.evictExpired()
            if !removed.isEmpty { node.logger.info("media files removed", metadata: ["count": "\(removed.count)"]) }
            return removed
        } catch {
            node.logger.warning("media cleanup failed", metadata: ["error": "\(error)"])
            return []
        }
    }

    /// Every media path a row refers to: attachments, thumbnails, local avatars and covers.
    package static func referencedPaths(in db: Transaction) throws -> Set<String> {
        try db.media.referencedPaths()
    }
}
