import Core
import Foundation
import Hummingbird
import Signatures
import Storage

/// Client app registration (`/api/v1/apps`), the first step of every Mastodon client.
struct AppsController {
    let node: Node

    /// Longest app name, as Mastodon.
    static let maxNameLength = 60
    /// Longest website URL, as Mastodon.
    static let maxWebsiteLength = 2000

    func addRoutes(to router: Router<NodeRequestContext>) {
        router.post("api/v1/apps", use: create)
        router.get("api/v1/apps/verify_credentials", use: verifyCredentials)
    }

    /// `POST /api/v1/apps` (client_name, redirect_uris as a string, several separated by
    /// newlines, or an array; scopes; website): registers an app and answers the
    /// `CredentialApplication`. 422 for a missing name, unknown scopes or a bad redirect URI.
    @Sendable func create(_ request: Request, context: NodeRequestContext) async throws -> Response {
        let params = try await APIParams.read(request)
        let name = params.nonEmpty("client_name") ?? ""
        let uris = RedirectURIs.split(params.strings("redirect_uris"))
        let scopes = Scopes(params.strings("scopes").joined(separator: " "))
        let website = params.nonEmpty("website")
        try Self.validate(name: name, uris: uris, scopes: scopes, website: website)
        let app = OAuthApp(name: name, website: website, redirectUris: uris.joined(separator: "\n"), scopes: scopes.description,
                           clientId: TokenSecret.new(), clientSecret: TokenSecret.new())
        do { try await node.database.write { db in try db.oauth.insert(app) } } catch { throw NodeError.internal("registering app: \(error)") }
        return APIResponse.json(APICredentialApplication(app, withCredentials: true, vapidKey: Base64URL.encode(node.vapidKey.publicKey)))
    }

    /// `GET /api/v1/apps/verify_credentials`: the app behind the bearer token (any valid token
    /// an app holds, user or app-only). 401 without one.
    @Sendable func verifyCredentials(_ request: Request, context: NodeRequestContext) async throws -> Response {
        guard let caller = try await node.apiAuth.caller(of: request), let app = caller.app else {
            throw NodeError.unauthorized("The access token is invalid")
        }
        return APIResponse.json(APICredentialApplication(app, withCredentials: false, vapidKey: Base64URL.encode(node.vapidKey.publicKey)))
    }

    /// Every problem with a registration, in Rails' "Validation failed: A, B" form.
    /// - Throws: `NodeError.validation` (422) when there is any.
    static func validate(name: String, uris: [String], scopes: Scopes, website: String?) throws(NodeError) {
        var problems: [String] = []
        if name.isEmpty { problems.append("Name can't be blank") }
        if name.count > maxNameLength { problems.append("Name is too long (maximum is \(maxNameLength) characters)") }
        if uris.isEmpty { problems.append("Redirect URI can't be blank") }
        if let problem = uris.lazy.compactMap(RedirectURIs.problem).first { problems.append("Redirect URI \(problem)") }
        if !scopes.unknown.isEmpty { problems.append("Scopes doesn't match configured on the server.") }
        if let website, website.count > maxWebsiteLength || !isWebURL(website) { problems.append("Website is invalid") }
        guard problems.isEmpty else { throw .validation("Validation failed: " + problems.joined(separator: ", ")) }
    }

    private static func isWebURL(_ text: String) -> Bool {
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased() else { return false }
        return (scheme == "http" || scheme == "https") && !(url.host ?? "").isEmpty
    }
}
