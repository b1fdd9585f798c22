import Core
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

    /// `POST /new` (multipart: photo1…photo10, alt1…alt10, optional focus1…focus10 and
    /// order1…order10, caption, visibility, csrf): stores the photos and publishes the post, then
    /// shows it; a missing, too-large or unsupported photo, or a bad focal point or position,
    /// shows the form again with what went wrong (422 or 413), nothing posted.
    @Sendable func create(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        guard let me = web.me else { return web.signInFirst() }
        return await web.handling {
            let params: APIParams
            do { params = try await web.form(fileLimit: Self.bodyLimit) } catch NodeError.payloadTooLarge {
                return try await show(web, caption: "", errors: ["Those photos are too large together: send at most 48 MB at once (16 MB each)."],
                                      status: .contentTooLarge)
            }
            let caption = params.string("caption") ?? ""
            let visibility: Visibility = params.string("visibility") == "private" ? .private : .public
            var errors: [String] = []
            let photos = Self.photos(in: params, errors: &errors)
            if photos.isEmpty && errors.isEmpty { errors.append("Choose at least one photo.") }
            if StatusForm.countedLength(caption) > StatusForm.maxCharacters { errors.append("The caption is longer than \(StatusForm.maxCharacters) characters.") }
            if photos.contains(where: { $0.alt.count > MediaService.maxDescription }) { errors.append("Alt text is at most \(MediaService.maxDescription) characters.") }
            guard errors.isEmpty else { return try await show(web, caption: caption, errors: errors, status: .unprocessableContent) }
            var mediaIds: [Int64] = []
            for photo in photos {
                do {
                    mediaIds.append(try await MediaService(node: node).upload(photo.data, description: photo.alt, focus: photo.focus, by: me).id)
                } catch NodeError.validation(let message) {
                    let reason = message.replacingOccurrences(of: "Validation failed: ", with: "")
                    return try await show(web, caption: caption, errors: ["Photo \(photo.slot) cannot be used: \(reason)"], status: .unprocessableContent)
                }
            }
            let post = try await node.posts.create(.init(text: caption, mediaIds: mediaIds, visibility: visibility), by: me)
            return WebResponses.redirect("/@\(me.username)/\(post.id)")
        }
    }

    /// A chosen photo of the form.
    struct Photo {
        /// The form slot it was chosen in (1…10), named in errors.
        let slot: Int
        let data: Data
        let alt: String
        /// Mastodon's focal point, "x,y" each from -1 to 1.
        let focus: FocalPoint?
        /// Where it goes in the post (1…10); ties keep the slots' order.
        let position: Int
    }

    /// The photos chosen in `params`, in the order their positions give; a position or focal
    /// point that cannot be read adds to `errors`.
    static func photos(in params: APIParams, errors: inout [String]) -> [Photo] {
        var photos: [Photo] = []
        for slot in 1...slots {
            guard let file = params.file("photo\(slot)"), !file.data.isEmpty else { continue }
            var position = slot
            if let raw = params.nonEmpty("order\(slot)") {
                position = IntParameter.integer(raw) ?? 0
            }
            guard (1...slots).contains(position) else {
                errors.append("The position of photo \(slot) must be a number from 1 to \(slots).")
                continue
            }
            let focus: FocalPoint?
            do { focus = try MediaController.focus(params, key: "focus\(slot)") } catch {
                errors.append("The focal point of photo \(slot) must be two numbers from -1 to 1, as x,y (for example 0,0.5).")
                continue
            }
            photos.append(Photo(slot: slot, data: file.data, alt: params.string("alt\(slot)") ?? "", focus: focus, position: position))
        }
        return photos.sorted { ($0.position, $0.slot) < ($1.position, $1.slot) }
    }

    private func show(_ web: WebContext, caption: String, errors: [String], status: HTTPResponse.Status) async throws(NodeError) -> Response {
        let slots = (1...Self.slots).map { ["number": String($0), "first": $0 == 1] as [String: Any] }
        let model: [String: Any] = ["caption": caption, "errors": errors, "firstSlot": slots[0], "moreSlots": Array(slots.dropFirst()),
                                    "maxCharacters": StatusForm.maxCharacters]
        return try await web.page("new", title: "New post", model: model, status: status)
    }
}
