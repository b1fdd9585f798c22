import Core
import Foundation
import Hummingbird
import Storage

/// Search (people, including `user@domain` and profile URLs looked up on their server, and
/// hashtags), notifications, and suggested people, through the client API's services.
struct WebSearchController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("search", use: search)
        router.get("notifications", use: notifications)
        router.get("people", use: suggestions)
    }

    /// `GET /search?q=`: matching people and hashtags; `#tag` goes straight to the tag's page.
    @Sendable func search(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        return await web.handling {
            let text = String((request.uri.queryParameters["q"].map(String.init) ?? "").trimmingCharacters(in: .whitespacesAndNewlines).prefix(200))
            var model: [String: Any] = ["q": text, "searched": !text.isEmpty]
            if text.hasPrefix("#"), text.count > 1, !text.contains(" ") {
                let name = SearchService.tagName(text)
                return WebResponses.redirect("/tags/" + (name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name))
            }
            if !text.isEmpty {
                let service = SearchService(node: node)
                let me = web.me
                let found = try await service.accounts(.init(text: text, limit: 20, resolve: me != nil), viewer: me)
                let node = node
                let people = try await StatusAccess.read(node) { db -> [WebAccountView] in
                    try EntityRenderer(node: node, viewer: me, db: db).accounts(found).map(WebAccountView.init)
                }
                let tags = try await service.hashtags(.init(text: text, limit: 10)).map(\.name)
                model["people"] = people
                model["tags"] = tags
                model["nothing"] = people.isEmpty && tags.isEmpty
                model["hasPeople"] = !people.isEmpty
                model["hasTags"] = !tags.isEmpty
            }
            return try await web.page("search", title: text.isEmpty ? "Search" : "Search: \(text)", model: model)
        }
    }

    /// `GET /notifications` (`max_id`): new followers, requests, likes, comments, mentions and
    /// boosts, newest first; opening it marks them read.
    @Sendable func notifications(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        guard let me = web.me else { return web.signInFirst() }
        return await web.handling {
            let bounds = PageBounds(maxId: try await APIParams.read(request).id("max_id"), limit: 30)
            let node = node
            let items = try await node.database.write { db -> [WebNotification] in
                let rows = try db.notifications.page(of: me.id, types: [], excluding: [], from: nil, page: bounds)
                if bounds.maxId == nil, let newest = rows.first {
                    _ = try db.markers.save(account: me.id, timeline: "notifications", lastReadId: String(newest.id))
                }
                return try EntityRenderer(node: node, viewer: me, db: db).notifications(rows).map { WebNotification($0) }
            }
            let next = items.count == bounds.limit ? items.last?.id : nil
            return try await web.page("notifications", title: "Notifications",
                                      model: ["items": items, "empty": items.isEmpty, "next": next as Any, "streamNotifications": true])
        }
    }

    /// `GET /people`: suggested people to follow.
    @Sendable func suggestions(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        guard let me = web.me else { return web.signInFirst() }
        return await web.handling {
            let people = try await WebFeedController(node: node).suggestions(for: me, limit: 30)
            return try await web.page("people", title: "Suggested people",
                                      model: ["heading": "People to follow", "people": people, "empty": people.isEmpty, "suggested": true])
        }
    }
}

/// A notification as a line of the notifications page.
struct WebNotification: Sendable {
    /// Local id.
    let id: String
    /// Who caused it.
    let account: WebAccountView
    /// "liked your post", "started following you", ...
    let sentence: String
    /// The post concerned, if any.
    let card: WebCard?
    /// When.
    let time: String
    /// Whether it is a follow request (approve and reject on the profile editor).
    let isRequest: Bool

    init(_ notification: APINotification) {
        id = notification.id
        account = WebAccountView(notification.account)
        card = notification.status.map { WebCard($0, viewer: nil) }
        time = WebTime.relative(notification.createdAt, now: Date())
        isRequest = notification.type == "follow_request"
        sentence = switch notification.type {
        case "follow": "started following you"
        case "follow_request": "asked to follow you"
        case "favourite": "liked your post"
        case "reblog": "boosted your post"
        case "mention": notification.status?.inReplyToId == nil ? "mentioned you" : "commented"
        case "status": "posted"
        case "update": "edited a post"
        default: notification.type.replacingOccurrences(of: "_", with: " ")
        }
    }
}
