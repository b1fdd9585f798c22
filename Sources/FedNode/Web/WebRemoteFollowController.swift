import Activity
import Core
import Foundation
import Hummingbird
import Storage

/// "Follow from your server" on a logged-out profile page, as Mastodon offers it: the visitor
/// types their handle, the node reads their server's WebFinger for its subscribe template
/// (`http://ostatus.org/schema/1.0/subscribe`) and sends them there with this profile's URI.
struct WebRemoteFollowController {
    let node: Node

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.get("web/remote_follow", use: remoteFollow)
    }

    /// `GET /web/remote_follow?acct=@name&handle=you@server`: a page with the link to the
    /// visitor's server (a link rather than a redirect, so the page's `form-action 'self'`
    /// holds); a friendly 4xx for an unknown account, a malformed handle or a server without
    /// the template.
    @Sendable func remoteFollow(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let web = await WebContext.of(request, node: node)
        return await web.handling {
            let query = request.uri.queryParameters
            let username = String((query["acct"].map(String.init) ?? "").drop { $0 == "@" })
            guard let account = try await node.database.read({ db in try db.accounts.findLocal(username: username) }) else {
                throw NodeError.notFound("There is no such account.")
            }
            let handle = (query["handle"].map(String.init) ?? "").trimmingCharacters(in: .whitespaces)
            guard let parts = Self.split(handle) else {
                throw NodeError.validation("Type your handle as you@your.server, for example alex@mastodon.social.")
            }
            let (user, domain) = parts
            guard let template = await subscribeTemplate(user: user, domain: domain) else {
                throw NodeError.notFound("\(domain) did not tell us where to follow from. Search for \(account.username)@\(node.urls.domain) on your server instead.")
            }
            let uri = account.uri.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? account.uri
            let target = template.replacingOccurrences(of: "{uri}", with: uri)
            let model: [String: Any] = ["target": target, "domain": domain, "name": account.username, "local": node.urls.domain]
            return try await web.page("remote_follow", title: "Follow from your server", model: model)
        }
    }

    /// `user` and `domain` of `you@server` (or `@you@server`), when both look right.
    static func split(_ handle: String) -> (String, String)? {
        let parts = handle.drop { $0 == "@" }.split(separator: "@", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].count <= 100, parts[1].count <= 253,
            parts[1].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == ":" }), parts[1].contains(where: \.isLetter) || parts[1].contains(".")
        else { return nil }
        return (parts[0], parts[1].lowercased())
    }

    /// The subscribe template of `domain`'s WebFinger answer for `user`, if it is an http(s) URL with `{uri}`.
    private func subscribeTemplate(user: String, domain: String) async -> String? {
        let scheme = node.configuration.testMode ? "http" : "https"
        let resource = "acct:\(user)@\(domain)".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let request = HTTPClientRequest(url: "\(scheme)://\(domain)/.well-known/webfinger?resource=\(resource)",
                                        headers: [("Accept", "application/jrd+json, application/json")],
                                        maxResponseBytes: RemoteLimits.maxDocumentBytes, timeout: RemoteLimits.objectFetchTimeout)
        guard let response = try? await node.httpClient.execute(request), response.status == 200,
            let document = try? JSONDecoder().decode(WebFingerDocument.self, from: Data(response.body)),
            let template = document.links.first(where: { $0.rel == "http://ostatus.org/schema/1.0/subscribe" })?.template,
            template.contains("{uri}"), template.hasPrefix("https://") || template.hasPrefix("http://")
        else { return nil }
        return template
    }
}
