import Core
import Hummingbird

/// A browser that opens an address nothing answers (a mistyped link, an old bookmark) gets the
/// web app's friendly 404 page instead of the API's JSON error. Only page loads are changed:
/// a `GET` that accepts HTML, outside the client API; apps, servers and images keep the JSON
/// answer `ErrorMiddleware` gives.
struct WebErrorPages: RouterMiddleware {
    let node: Node

    func handle(_ request: Request, context: NodeRequestContext, next: (Request, NodeRequestContext) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound && Self.isPageLoad(request) {
            return await WebContext.of(request, node: node).error(.notFound, "There is nothing at this address. It may have been mistyped, or the page was removed.")
        }
    }

    /// Whether `request` is a browser loading a page.
    static func isPageLoad(_ request: Request) -> Bool {
        guard request.method == .get || request.method == .head, !request.uri.path.hasPrefix("/api/") else { return false }
        let accept = request.headers[.accept] ?? ""
        return accept.contains("text/html")
    }
}
