import Foundation
import Hummingbird
import Storage

/// `GET /media/remote/:kind/:id`: remote photos, thumbnails, avatars and covers served from the
/// node's cache (fetched on first use, again after eviction), so apps load them from this node
/// and the origin sees one fetch per node, not one per reader. Only URLs the node stored on a
/// media or account row are fetched: the route is not an open proxy.
struct RemoteMediaController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("media/remote/:kind/:id", use: serve)
    }

    /// The cached image, with its type from the bytes and a day of caching.
    @Sendable func serve(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let kind = try context.parameters.require("kind")
        let id = try context.parameters.require("id", as: Int64.self)
        guard let remote = try await originURL(kind: kind, id: id), let url = URL(string: remote) else {
            throw NodeError.notFound("Record not found")
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

    private func originURL(kind: String, id: Int64) async throws -> String? {
        try await node.database.read { db -> String? in
            switch kind {
            case "attachment": try db.media.find(id: id)?.remoteUrl
            case "preview": try db.media.find(id: id).flatMap { $0.previewRemoteUrl ?? $0.remoteUrl }
            case "avatar": try db.accounts.find(id: id).flatMap { $0.isLocal ? nil : $0.avatarUrl }
            case "header": try db.accounts.find(id: id).flatMap { $0.isLocal ? nil : $0.headerUrl }
            default: nil
            }
        }
    }
}
