import Core
import Foundation
import Hummingbird
import Storage

/// What every web page handler starts from: the node, the request, the signed-in session (if
/// any) and the request's CSRF token. It renders pages in the layout, redirects, and turns
/// failures into friendly error pages.
struct WebContext: Sendable {
    /// The node.
    let node: Node
    /// The request being answered.
    let request: Request
    /// The signed-in browser, if any.
    let session: WebSession?
    /// The CSRF token forms of this page carry.
    let csrf: String
    /// The `Set-Cookie` value issuing `csrf`, when the browser had none yet.
    let csrfCookie: String?

    /// The context of `request`.
    static func of(_ request: Request, node: Node) async -> WebContext {
        let (csrf, cookie) = CSRF.token(for: request, node: node)
        return WebContext(node: node, request: request, session: await WebSession.current(request, node: node),
                          csrf: csrf, csrfCookie: cookie)
    }

    /// The signed-in account, if any.
    var me: Account? { session?.account }

    /// A page: `template` rendered with `model` inside the layout.
    /// - Parameters:
    ///   - meta: OpenGraph and ActivityPub links for public pages.
    ///   - cookies: Extra `Set-Cookie` values.
    func page(_ template: String, title: String, model: Any = [String: String](), status: HTTPResponse.Status = .ok,
              meta: WebMeta? = nil, cookies: [String] = []) async throws(NodeError) -> Response {
        let here = request.uri.path + (request.uri.query.map { "?" + $0 } ?? "")
        let shared: [String: Any] = ["page": WebModel.clean(model), "csrf": csrf, "signedIn": me != nil, "back": here]
        let body = try WebTemplates.render(template, shared)
        let unread = await unreadCount()
        let layout: [String: Any] = [
            "title": title, "body": body, "csrf": csrf, "nodeName": node.configuration.nodeName,
            "stylesheet": WebAssets.stylesheet.path, "script": WebAssets.script.path, "meta": meta as Any,
            "me": me.map(WebAccountView.init(nav:)) as Any, "unread": unread > 0 ? String(unread) : nil as String?,
        ]
        return WebResponses.html(try WebTemplates.render("layout", WebModel.clean(layout)), status: status,
                                 cookies: cookies + [csrfCookie].compactMap { $0 })
    }

    /// A friendly error page with `status`.
    func error(_ status: HTTPResponse.Status, _ message: String) async -> Response {
        let model = ["status": String(status.code), "reason": status.reasonPhrase, "message": message]
        return (try? await page("error", title: status.reasonPhrase, model: model, status: status))
            ?? WebResponses.html("<!DOCTYPE html><title>Error</title><p>\(HTMLText.escape(message))</p>", status: status)
    }

    /// The sign-in page, for a page that needs a signed-in person, coming back here afterwards
    /// (when this page's address is one `LocalRedirect` lets the sign-in go back to).
    func signInFirst() -> Response {
        let next = request.uri.path + (request.uri.query.map { "?" + $0 } ?? "")
        guard LocalRedirect.isLocal(next) else { return WebResponses.redirect("/login") }
        var query = URLComponents()
        query.queryItems = [URLQueryItem(name: "next", value: next)]
        return WebResponses.redirect(LocalRedirect.target("/login?" + (query.percentEncodedQuery ?? ""), or: "/login"))
    }

    /// The posted form, when its CSRF token is right. A form with files (multipart) is read
    /// within `fileLimit` bytes; any other within `APIParams.bodyLimit`.
    /// - Throws: `NodeError.forbidden` for a missing or wrong token.
    func form(fileLimit: Int? = nil) async throws(NodeError) -> APIParams {
        let params = try await APIParams.read(request, fileLimit: fileLimit)
        guard CSRF.isValid(params, request: request) else {
            throw .forbidden("This form has expired or did not come from this site. Go back, reload the page and try again.")
        }
        return params
    }

    /// Runs `body`, answering any failure with a friendly page (401 → the sign-in page).
    func handling(_ body: () async throws -> Response) async -> Response {
        do { return try await body() } catch let error as NodeError {
            if case .unauthorized = error { return signInFirst() }
            if case .internal(let detail) = error { node.logger.error("web page failed: \(detail)") }
            return await self.error(error.status, error.message)
        } catch is RateLimitExceeded {
            return await self.error(.tooManyRequests, "Too many attempts from here. Wait a few minutes and try again.")
        } catch {
            node.logger.error("web page failed: \(error)")
            return await self.error(.internalServerError, "Something went wrong on our side. Please try again.")
        }
    }

    /// Where to go after a form: the local path in `back` (see `LocalRedirect`), or `fallback`.
    func back(_ params: APIParams, or fallback: String) -> Response {
        WebResponses.redirect(LocalRedirect.target(params.string("back"), or: fallback))
    }

    /// Whether the script sent the form to update the page in place (it wants JSON back).
    var wantsJSON: Bool { request.headers[.init("X-FedNode-Fetch")!] == "1" }

    private func unreadCount() async -> Int {
        guard let me else { return 0 }
        return (try? await node.database.read { db in
            // Newer than the notifications marker, which opening the notifications page moves.
            let seen = try db.markers.find(account: me.id, timelines: ["notifications"]).first.flatMap { Int64($0.lastReadId) }
            let bounds = PageBounds(maxId: nil, sinceId: seen, minId: nil, limit: 20)
            return try db.notifications.page(of: me.id, types: [], excluding: [], from: nil, page: bounds).count
        }) ?? 0
    }
}

/// OpenGraph tags and the ActivityPub alternate link of a public page.
struct WebMeta {
    /// `og:title`.
    var title: String
    /// `og:description`.
    var description: String
    /// `og:image`, if any.
    var image: String?
    /// `og:url`.
    var url: String
    /// The ActivityPub id, linked as `application/activity+json`.
    var activityId: String?
}

/// Template models.
enum WebModel {
    /// `model` without its `nil` values when it is a dictionary: a dictionary hands Mustache an
    /// empty optional as a value, which a section would render, where a struct's `nil` is absent.
    static func clean(_ model: Any) -> Any {
        guard let dictionary = model as? [String: Any] else { return model }
        return dictionary.compactMapValues { value -> Any? in
            let mirror = Mirror(reflecting: value)
            guard mirror.displayStyle == .optional else { return value }
            return mirror.children.first?.value
        }
    }
}
