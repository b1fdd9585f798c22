import Core
import Foundation
import Hummingbird
import Storage

/// `GET /media/remote/:kind/:id`: remote photos, thumbnails, avatars and covers served from the
/// node's cache (fetched on first use, again after eviction), so apps load them from this node
/// and the origin sees one fetch per node, not one per reader. Only URLs the node stored on a
/// media or account row are fetched: the route is not an open proxy. Media of accounts whose
/// domain is blocked with `reject_media` is neither fetched nor served from the cache (403).
struct RemoteMediaController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("media/remote/:kind/:id", use: serve)
    }

    /// The cached image, with its type from the bytes and a day of caching.
    @Sendable func serve(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let kind = try context.parameters.require("kind")
        let id = try context.parameters.require("id", as: Int64.self)
        guard let found = try await origin(kind: kind, id: id), let url = URL(string: found.remote) else {
            throw NodeError.notFound("Record not found")
        }
        let (remote, owner) = found
        if let domain = owner.domain, try await rejectsMedia(of: domain) {
            throw NodeError.forbidden("This server does not store media from \(domain)")
        }
        let data: Data
        do { data = try await node.remoteMedia.get(url) } catch {
            node.logger.info("remote media unavailable", metadata: ["url": "\(remote)", "error": "\(error)"])
            throw NodeError.notFound("Media not available")
        }
        guard let format = ImageFormat.detect(data) else { throw NodeError.notFound("Media not available") }
        return JSONResponse.bytes(data, contentType: format.mimeType, headers: [
            .cacheControl: "public, max-age=86400", .init("X-Content-Type-Options")!: "nosniff",
        ])
    }

    /// The origin URL of the image and the account it belongs to.
    private func origin(kind: String, id: Int64) async throws -> (remote: String, owner: Account)? {
        try await node.database.read { db -> (remote: String, owner: Account)? in
            switch kind {
            case "attachment", "preview":
                guard let media = try db.media.find(id: id), let owner = try db.accounts.find(id: media.accountId) else { return nil }
                return (kind == "preview" ? media.previewRemoteUrl ?? media.remoteUrl : media.remoteUrl).map { (remote: $0, owner: owner) }
            case "avatar", "header":
                guard let owner = try db.accounts.find(id: id), !owner.isLocal else { return nil }
                return (kind == "avatar" ? owner.avatarUrl : owner.headerUrl).map { (remote: $0, owner: owner) }
            default: return nil
            }
        }
    }

    /// Whether a domain block of `domain` (or a parent domain) rejects its media.
    private func rejectsMedia(of domain: String) async throws -> Bool {
        try await node.database.read { db in try db.moderation.domainBlocks(covering: domain).contains(where: \.rejectMedia) }
    }
}
