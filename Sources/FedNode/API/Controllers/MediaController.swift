import Core
import Foundation
import Hummingbird
import Storage

/// `/api/v1/media` and `/api/v2/media`: photo uploads, processed at once, to attach to a post
/// with `media_ids[]` (docs.joinmastodon.org/methods/media).
struct MediaController {
    let node: Node

    /// Longest alt text (Mastodon's limit).
    static let maxDescription = 1500

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.post("api/v1/media", use: upload)
        router.post("api/v2/media", use: upload)
        router.get("api/v1/media/:id", use: show)
        router.put("api/v1/media/:id", use: update)
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
        let row = try await Self.store(file.data, description: description, focus: focus, owner: me, node: node)
        let node = node
        let entity = try await StatusAccess.read(node) { db in EntityRenderer(node: node, viewer: me, db: db).attachment(row) }
        return APIResponse.json(entity)
    }

    /// Stores an uploaded image (type from its bytes; JPEG, PNG, GIF or WebP up to 16 MiB) as
    /// an unattached photo of `owner`: what `POST /api/v2/media` and the web app's new-post form
    /// both do.
    /// - Throws: `NodeError.validation` (422) for an unsupported or broken image.
    static func store(_ data: Data, description: String, focus: APIMediaAttachment.Focus?, owner: Account,
                      node: Node) async throws(NodeError) -> MediaAttachment {
        let stored = try await node.uploadStore.store(data, focus: focus.map { FocalPoint(x: $0.x, y: $0.y) })
        var media = MediaAttachment(accountId: owner.id)
        media.type = "image"
        media.contentType = stored.contentType
        media.filePath = stored.path
        media.width = stored.width
        media.height = stored.height
        media.fileSize = stored.fileSize
        media.thumbnailPath = stored.thumbnailPath
        media.thumbnailWidth = stored.thumbnailWidth
        media.thumbnailHeight = stored.thumbnailHeight
        media.blurhash = stored.blurhash
        media.description = description
        media.focusX = focus?.x
        media.focusY = focus?.y
        let row = media
        do { try await node.database.write { db in try db.media.insert(row) } } catch { throw .internal("media write: \(error)") }
        return row
    }

    /// `GET /api/v1/media/:id` (write:media): one of the caller's uploads (404 for anyone else's).
    @Sendable func show(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let (_, me) = try await node.apiAuth.user(of: request, scope: "write:media")
        let (node, id) = (node, try StatusAccess.pathId(context))
        let entity = try await StatusAccess.read(node) { db in
            EntityRenderer(node: node, viewer: me, db: db).attachment(try Self.own(id, of: me, in: db))
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
        let entity = try await write { db in
            var media = try Self.own(id, of: me, in: db)
            guard media.postId == nil else { throw NodeError.notFound("Record not found") }
            if let description { media.description = description }
            if let focus { (media.focusX, media.focusY) = (focus.x, focus.y) }
            try db.media.update(media)
            return EntityRenderer(node: node, viewer: me, db: db).attachment(media)
        }
        return APIResponse.json(entity)
    }

    private static func own(_ id: Int64, of me: Account, in db: Transaction) throws -> MediaAttachment {
        guard let media = try db.media.find(id: id), media.accountId == me.id else {
            throw NodeError.notFound("Record not found")
        }
        return media
    }

    /// The `description` parameter, if sent.
    private static func description(_ params: APIParams) throws(NodeError) -> String? {
        guard let text = params.string("description") else { return nil }
        guard text.count <= maxDescription else {
            throw .validation("Validation failed: Description is too long (maximum is \(maxDescription) characters)")
        }
        return text
    }

    /// The `focus` parameter ("x,y", each in -1...1), if sent.
    static func focus(_ params: APIParams, key: String = "focus") throws(NodeError) -> APIMediaAttachment.Focus? {
        guard let raw = params.nonEmpty(key) else { return nil }
        let parts = raw.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let x = parts[0], let y = parts[1], (-1...1).contains(x), (-1...1).contains(y) else {
            throw .validation("Validation failed: Focus must be two numbers from -1.0 to 1.0, as x,y")
        }
        return APIMediaAttachment.Focus(x: x, y: y)
    }

    private func write<T: Sendable>(_ body: @Sendable (Transaction) throws -> T) async throws(NodeError) -> T {
        do { return try await node.database.write(body) } catch let error as NodeError { throw error } catch {
            throw .internal("media write: \(error)")
        }
    }
}
