import Core
import Foundation
import Hummingbird
import Storage

/// `/api/v1/media` and `/api/v2/media`: photo uploads, processed at once, to attach to a post
/// with `media_ids[]` (docs.joinmastodon.org/methods/media).
struct MediaController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.post("api/v1/media", use: upload)
        router.post("api/v2/media", use: upload)
        router.get("api/v1/media/:id", use: show)
        router.put("api/v1/media/:id", use: update)
        router.delete("api/v1/media/:id", use: delete)
    }

    /// `POST /api/v2/media` and `POST /api/v1/media` (write:media): multipart `file`, with
    /// `description` and `focus` ("x,y"). The type comes from the bytes (JPEG, PNG, GIF, WebP);
    /// anything else, or over 16 MiB, is a 422 with nothing stored. Answers 200 with the
    /// attachment, ready to use (processing is synchronous).
    @Sendable func upload(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:media")
        let params = try await APIParams.read(request, fileLimit: APIParams.uploadLimit)
        let description = try Self.description(params) ?? ""
        let focus = try Self.focus(params)
        guard let file = params.file("file") else { throw NodeError.validation("Validation failed: File can't be blank") }
        let row = try await MediaService(node: node).upload(file.data, description: description, focus: focus, by: me)
        let node = node
        let entity = try await StatusAccess.read(node) { db in EntityRenderer(node: node, viewer: me, db: db).attachment(row) }
        return APIResponse.json(entity)
    }

    /// `GET /api/v1/media/:id` (write:media): one of the caller's uploads (404 for anyone else's).
    @Sendable func show(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:media")
        let (node, id) = (node, try StatusAccess.pathId(context))
        let entity = try await StatusAccess.read(node) { db in
            EntityRenderer(node: node, viewer: me, db: db).attachment(try MediaService.own(id, of: me, in: db))
        }
        return APIResponse.json(entity)
    }

    /// `PUT /api/v1/media/:id` (write:media): changes the alt text or focal point of one of the
    /// caller's uploads not yet attached to a post (attached ones change through an edit of
    /// the post, which tells other servers; as Mastodon, 404 otherwise).
    @Sendable func update(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:media")
        let params = try await APIParams.read(request)
        let (description, focus) = (try Self.description(params), try Self.focus(params))
        let (node, id) = (node, try StatusAccess.pathId(context))
        let media = try await MediaService(node: node).update(id, description: description, focus: focus, by: me)
        return APIResponse.json(try await StatusAccess.read(node) { db in EntityRenderer(node: node, viewer: me, db: db).attachment(media) })
    }

    /// `DELETE /api/v1/media/:id` (write:media, Mastodon 4.4): deletes one of the caller's uploads
    /// that no post has; answers `{}`. 404 for anyone else's, 422 for an attached one.
    @Sendable func delete(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:media")
        try await MediaService(node: node).delete(try StatusAccess.pathId(context), by: me)
        return APIResponse.json([String: String]())
    }

    /// The `description` parameter, if sent (`MediaService` checks its length).
    private static func description(_ params: APIParams) throws(NodeError) -> String? {
        params.string("description")
    }

    /// The `focus` parameter ("x,y", each in -1...1), if sent.
    static func focus(_ params: APIParams, key: String = "focus") throws(NodeError) -> FocalPoint? {
        guard let raw = params.nonEmpty(key) else { return nil }
        let parts = raw.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let x = parts[0], let y = parts[1], (-1...1).contains(x), (-1...1).contains(y) else {
            throw .validation("Validation failed: Focus must be two numbers from -1.0 to 1.0, as x,y")
        }
        return FocalPoint(x: x, y: y)
    }
}
