import Foundation
import Hummingbird
import Storage

/// The new-post page: up to ten photos, each with its alt text, a caption and the audience.
/// Photos go through the same intake as `POST /api/v2/media`, the post through `PostService`.
struct WebComposeController {
    let node: Node
    /// Photo slots on the form.
    static let slots = StatusForm.maxMedia
    /// Largest form accepted: a few large photos (each at most 16 MiB).
    static let bodyLimit = 48 * 1024 * 1024

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("new", use: form)
        router.post("new", use: create)
    }

    /// `GET /new`: the form.
    @Sendable func form(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        guard web.me != nil else { return web.signInFirst() }
        return await web.handling { try await show(web, caption: "", errors: [], status: .ok) }
    }

    /// `POST /new` (multipart: photo1…photo10, alt1…alt10, caption, visibility, csrf): stores
    /// the photos and publishes the post, then shows it; a missing, too-large or unsupported
    /// photo shows the form again with what went wrong (422 or 413), nothing posted.
    @Sendable func create(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        guard let me = web.me else { return web.signInFirst() }
        return await web.handling {
            let params: APIParams
            do { params = try await web.form(limit: Self.bodyLimit) } catch NodeError.payloadTooLarge {
                return try await show(web, caption: "", errors: ["Those photos are too large together: send at most 48 MB at once (16 MB each)."],
                                      status: .contentTooLarge)
            }
            let caption = params.string("caption") ?? ""
            let visibility: Visibility = params.string("visibility") == "private" ? .private : .public
            let photos = (1...Self.slots).compactMap { slot -> (Int, Data, String)? in
                params.file("photo\(slot)").flatMap { $0.data.isEmpty ? nil : (slot, $0.data, params.string("alt\(slot)") ?? "") }
            }
            var errors: [String] = []
            if photos.isEmpty { errors.append("Choose at least one photo.") }
            if StatusForm.countedLength(caption) > StatusForm.maxCharacters { errors.append("The caption is longer than \(StatusForm.maxCharacters) characters.") }
            if photos.contains(where: { $0.2.count > MediaController.maxDescription }) { errors.append("Alt text is at most \(MediaController.maxDescription) characters.") }
            guard errors.isEmpty else { return try await show(web, caption: caption, errors: errors, status: .unprocessableContent) }
            var mediaIds: [Int64] = []
            for (slot, data, alt) in photos {
                do {
                    mediaIds.append(try await MediaController.store(data, description: alt, focus: nil, owner: me, node: node).id)
                } catch NodeError.validation(let message) {
                    let reason = message.replacingOccurrences(of: "Validation failed: ", with: "")
                    return try await show(web, caption: caption, errors: ["Photo \(slot) cannot be used: \(reason)"], status: .unprocessableContent)
                }
            }
            let post = try await node.posts.create(.init(text: caption, mediaIds: mediaIds, visibility: visibility), by: me)
            return WebResponses.redirect("/@\(me.username)/\(post.id)")
        }
    }

    private func show(_ web: WebContext, caption: String, errors: [String], status: HTTPResponse.Status) async throws(NodeError) -> Response {
        let slots = (1...Self.slots).map { ["number": String($0), "first": $0 == 1] as [String: Any] }
        let model: [String: Any] = ["caption": caption, "errors": errors, "firstSlot": slots[0], "moreSlots": Array(slots.dropFirst()),
                                    "maxCharacters": StatusForm.maxCharacters]
        return try await web.page("new", title: "New post", model: model, status: status)
    }
}
