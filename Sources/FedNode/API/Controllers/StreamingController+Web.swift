import Core
import Hummingbird
import Storage

extension StreamingController {
    /// `GET /web/stream`: the `user` stream (home posts and notifications) of the web app's
    /// signed-in browser, identified by its session cookie (a token like any other), as
    /// server-sent events; 401 without a session.
    @Sendable func webSession(_ request: Request, context: NodeRequestContext) async throws -> Response {
        guard let session = await WebSession.current(request, node: node) else { throw NodeError.unauthorized("Not signed in") }
        let caller = APICaller(token: session.token, scopes: Scopes(session.token.scopes), account: session.account, app: nil)
        return try events(of: .user, for: StreamingAccess(caller: caller, webSocketProtocol: nil))
    }
}
